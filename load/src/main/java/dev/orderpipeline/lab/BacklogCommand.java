package dev.orderpipeline.lab;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.LabReport;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * An experiment that fills the command topic itself and starts and stops its own worker processes (drain,
 * group): it needs the pipeline the lab starts, without workers, and reads the results topic after each run
 * instead of listening along. The options every such experiment has are declared here, their defaults by each one.
 */
public abstract class BacklogCommand extends LabCommand {

    @Option(order = 1, names = "--commands", paramLabel = "N", description = "Checkouts in each backlog.")
    protected int commands;

    @Option(
            order = 8,
            names = "--lag-interval-ms",
            paramLabel = "MS",
            description = "How often the group's offsets are read (the resolution of the lag over time).")
    protected int lagIntervalMillis;

    @Option(
            order = 9,
            names = "--timeout",
            paramLabel = "SECONDS",
            description = "A backlog fails if the group's lag is not zero by then.")
    protected int timeoutSeconds;

    protected BacklogCommand(int commands, int lagIntervalMillis, int timeoutSeconds) {
        this.commands = commands;
        this.lagIntervalMillis = lagIntervalMillis;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** Runs the experiment on the stack the lab started. */
    protected abstract LabReport run(StackTarget stack, Progress progress);

    protected final Duration lagInterval() {
        return Duration.ofMillis(lagIntervalMillis);
    }

    protected final Duration timeout() {
        return Duration.ofSeconds(timeoutSeconds);
    }

    @Override
    protected final StackTarget open() {
        return targetOptions.startWithoutWorkers();
    }

    @Override
    protected final boolean listensToResults() {
        return false;
    }

    @Override
    protected final LabReport run(StackTarget target, Progress progress, @Nullable ResultsListener results) {
        return run(target, progress);
    }
}
