package dev.orderpipeline.lab.render;

import dev.orderpipeline.lab.chaos.ChaosReport;
import dev.orderpipeline.lab.compare.CompareReport;
import dev.orderpipeline.lab.drain.DrainReport;
import dev.orderpipeline.lab.group.GroupReport;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportWriter;
import dev.orderpipeline.lab.soak.SoakReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * Writes report.md and the charts of report folders again from their report.json, without running anything: after
 * a change to how reports are written, the committed results follow without repeating the runs.
 */
@CommandLine.Command(
        name = "render",
        mixinStandardHelpOptions = true,
        description = "Writes report.md and the charts of existing report folders again from their report.json;"
                + " runs nothing.")
public final class RenderCommand implements Callable<Integer> {

    /** The report type of each experiment, by the command name its header records. */
    static final Map<String, Class<? extends LabReport>> TYPES = Map.of(
            "compare", CompareReport.class,
            "soak", SoakReport.class,
            "drain", DrainReport.class,
            "group", GroupReport.class,
            "chaos", ChaosReport.class);

    @CommandLine.Parameters(arity = "1..*", paramLabel = "DIR", description = "Report folders (holding report.json).")
    List<Path> folders = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        for (var folder : folders) {
            var report = read(folder);
            ReportWriter.write(report, folder);
            System.err.println("Rendered " + folder.resolve(ReportWriter.MARKDOWN_FILE));
        }
        return 0;
    }

    /** Reads a report folder's report.json as the report type its header names. */
    static LabReport read(Path folder) throws java.io.IOException {
        var json = folder.resolve(ReportWriter.JSON_FILE);
        if (!Files.isRegularFile(json)) {
            throw invalid("no " + ReportWriter.JSON_FILE + " in " + folder);
        }
        var command = ReportWriter.JSON
                .readTree(json.toFile())
                .path("header")
                .path("command")
                .asString("");
        var type = TYPES.get(command);
        if (type == null) {
            throw invalid(json + " is the report of an unknown command '" + command + "'; known: " + TYPES.keySet());
        }
        return ReportWriter.JSON.readValue(json.toFile(), type);
    }

    private static CommandLine.ParameterException invalid(String message) {
        return new CommandLine.ParameterException(new CommandLine(new RenderCommand()), message);
    }
}
