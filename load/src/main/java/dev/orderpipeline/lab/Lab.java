package dev.orderpipeline.lab;

import dev.orderpipeline.lab.chaos.ChaosCommand;
import dev.orderpipeline.lab.compare.CompareCommand;
import dev.orderpipeline.lab.drain.DrainCommand;
import dev.orderpipeline.lab.group.GroupCommand;
import dev.orderpipeline.lab.render.RenderCommand;
import dev.orderpipeline.lab.soak.SoakCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/lab}: the experiment runner's entry point. */
@Command(
        name = "bin/lab",
        mixinStandardHelpOptions = true,
        versionProvider = LabVersion.class,
        usageHelpAutoWidth = true,
        description = {
            "Runs the experiments of the articles against the order pipeline, which it starts itself: PostgreSQL, a"
                    + " Kafka broker, API replicas and workers as processes of their own.",
            "Each command writes report.json and report.md with charts to lab-results/."
        },
        subcommands = {
            CompareCommand.class,
            SoakCommand.class,
            DrainCommand.class,
            GroupCommand.class,
            ChaosCommand.class,
            RenderCommand.class,
            TokenCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Lab implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.@org.jspecify.annotations.Nullable CommandSpec spec;

    public static void main(String[] args) {
        // before the first logger exists: the lab's console goes to stderr, beside the progress line
        System.setProperty("log4j2.configurationFile", "lab-log4j2.xml");
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new Lab())
                .setExecutionExceptionHandler(Lab::failed)
                .execute(args));
    }

    /**
     * Failures the lab expects (a jar not built, a port taken, an app that did not start, a stop requested while
     * starting) read as one line; anything else keeps its stack trace, because it is a bug.
     */
    private static int failed(Exception ex, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        if (ex instanceof IllegalStateException
                || ex instanceof IllegalArgumentException
                || ex instanceof java.io.UncheckedIOException) {
            commandLine.getErr().println(commandLine.getCommandName() + " failed: " + ex.getMessage());
        } else {
            ex.printStackTrace(commandLine.getErr());
        }
        return 1;
    }

    @Override
    public void run() {
        if (spec != null) {
            spec.commandLine().usage(System.err);
        }
    }
}
