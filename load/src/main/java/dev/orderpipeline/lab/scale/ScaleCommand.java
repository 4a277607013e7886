package dev.orderpipeline.lab.scale;

import dev.orderpipeline.lab.BacklogCommand;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.LabReport;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/lab scale}: how the consumer group scales. Fields are filled by picocli. */
@Command(
        name = "scale",
        description = {
            "Partitions x worker processes x key distribution: per cell a backlog of --commands checkouts drained by"
                    + " the group; throughput, end-to-end p50/p99 (command record to result record), lag per"
                    + " partition over time, CPU per kind of process, invariants.",
            "The full grid (4 x 3 x 3 = 36 cells) takes long on a small machine: shrink it with --partition-counts,"
                    + " --worker-counts, --keys and --commands."
        })
public final class ScaleCommand extends BacklogCommand {

    public ScaleCommand() {
        super(200_000, 250, 600);
    }

    @Option(
            order = 2,
            names = "--partition-counts",
            paramLabel = "P",
            split = ",",
            description = "Partitions of the command topic, one topic each.")
    List<Integer> partitionCounts = new ArrayList<>(List.of(1, 3, 6, 12));

    @Option(
            order = 3,
            names = "--worker-counts",
            paramLabel = "W",
            split = ",",
            description = "Worker processes in the group.")
    List<Integer> workerCounts = new ArrayList<>(List.of(1, 2, 3));

    @Option(
            order = 4,
            names = "--keys",
            paramLabel = "DISTRIBUTION",
            split = ",",
            converter = KeyDistribution.Converter.class,
            description = "Key distributions: hot, uniform:N, zipf:N:s.")
    List<KeyDistribution> keys = new ArrayList<>(List.of(
            new KeyDistribution.Hot(), new KeyDistribution.Uniform(10_000), new KeyDistribution.Zipf(10_000, 1.1)));

    @Option(
            order = 5,
            names = "--warmup",
            paramLabel = "N",
            description =
                    "Checkouts (uniform:1000) drained untimed whenever workers joined, before the cells; 0: none.")
    int warmup = 20_000;

    @Override
    protected LabReport run(StackTarget stack, Progress progress) {
        var settings =
                new ScaleSettings(partitionCounts, workerCounts, keys, commands, warmup, lagInterval(), timeout());
        var cells = new ScaleExperiment(stack, settings, progress).run();
        return new ScaleReport(header(stack), settings, cells);
    }
}
