package dev.orderpipeline.lab.rebalance;

import dev.orderpipeline.lab.BacklogCommand;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.LabReport;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/lab rebalance}: what a worker joining or dying costs. Fields are filled by picocli. */
@Command(
        name = "rebalance",
        description = {
            "While the workers consume checkouts sent at --rate: add a worker (add), kill -9 one of two workers"
                    + " (kill), or kill -9 one of two and start it again at once under its name, its static group"
                    + " membership (restart), when --event-at of them is committed; under the classic group protocol"
                    + " and the consumer protocol (KIP-848, group.protocol=consumer). Measures the pause on the"
                    + " partitions that moved, and on the killed worker's partitions (committed offsets per partition"
                    + " read every --lag-interval-ms), the duplicates the idempotency table absorbed, and the"
                    + " invariants.",
            "The topic's partition count is --partitions (default 6)."
        })
public final class RebalanceCommand extends BacklogCommand {

    public RebalanceCommand() {
        super(90_000, 200, 900);
    }

    @Option(
            order = 2,
            names = "--scenarios",
            paramLabel = "NAME",
            split = ",",
            description = "add, kill and/or restart.")
    List<String> scenarios =
            new ArrayList<>(List.of(RebalanceSettings.ADD, RebalanceSettings.KILL, RebalanceSettings.RESTART));

    @Option(
            order = 3,
            names = "--protocols",
            paramLabel = "NAME",
            split = ",",
            description = "classic and/or consumer.")
    List<String> protocols = new ArrayList<>(List.of("classic", "consumer"));

    @Option(
            order = 4,
            names = "--rate",
            paramLabel = "PER-SECOND",
            description = "Checkouts sent per second while the workers consume, below what one worker can do"
                    + " (0: all at once, a backlog).")
    int rate = 1000;

    @Option(
            order = 5,
            names = "--keys",
            paramLabel = "DISTRIBUTION",
            converter = KeyDistribution.Converter.class,
            description = "How the checkouts spread over products (uniform gives every partition work).")
    KeyDistribution keys = new KeyDistribution.Uniform(10_000);

    @Option(
            order = 6,
            names = "--event-at",
            paramLabel = "SHARE",
            description = "Share of the backlog committed when the worker is added or killed.")
    double eventAt = 0.3;

    @Option(
            order = 7,
            names = "--warmup",
            paramLabel = "N",
            description = "Checkouts drained untimed once the first workers joined, before each run; 0: none.")
    int warmup = 20_000;

    @Override
    protected LabReport run(StackTarget stack, Progress progress) {
        var settings = new RebalanceSettings(
                scenarios,
                protocols,
                commands,
                rate,
                keys,
                targetOptions.partitions(),
                eventAt,
                warmup,
                lagInterval(),
                timeout());
        var runs = new RebalanceExperiment(stack, settings, progress).run();
        return new RebalanceReport(header(stack), settings, runs);
    }
}
