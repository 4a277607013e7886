package dev.orderpipeline.lab.group;

import dev.orderpipeline.lab.LabCommand;
import dev.orderpipeline.lab.Options;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.LabReport;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bin/lab group}: how the consumer group scales and what a worker joining or dying costs. */
@Command(
        name = "group",
        description = {
            "Partitions x worker processes x key distribution x event x group protocol: per cell a backlog of"
                    + " --commands checkouts sent at --rate and drained by the group to lag zero; throughput,"
                    + " end-to-end p50/p99 (command record to result record), the busiest partition's"
                    + " share, cost per checkout, duplicates, invariants.",
            "Events, fired when 30 % of the backlog is committed: none; add (a worker joins); kill (kill -9 of"
                    + " one); restart (kill -9 of one, started again at once under its name, its static group"
                    + " membership). With an event: the pause on the partitions that moved, on those that stayed and"
                    + " on the killed worker's (committed offsets per partition read every --lag-interval-ms); give"
                    + " it a --rate the workers keep up with. Protocols: classic and consumer (KIP-848).",
            "The grid grows fast on a small machine: every list option multiplies it."
        })
public final class GroupCommand extends LabCommand {

    @Mixin
    Options.Backlog backlog = new Options.Backlog(50_000, 200, 900);

    @Mixin
    Options.Keys keys = new Options.Keys(new KeyDistribution.Uniform(10_000));

    @Mixin
    Options.Warmup warmup = new Options.Warmup(20_000);

    @Option(
            order = 2,
            names = "--partition-counts",
            paramLabel = "P",
            split = ",",
            description = "Partitions of the command topic, one topic each.")
    List<Integer> partitionCounts = new ArrayList<>(List.of(6));

    @Option(
            order = 3,
            names = "--worker-counts",
            paramLabel = "W",
            split = ",",
            description = "Worker processes in the group (add starts one fewer, kill ends with one fewer).")
    List<Integer> workerCounts = new ArrayList<>(List.of(2));

    @Option(
            order = 5,
            names = "--events",
            paramLabel = "NAME",
            split = ",",
            description = "none, add, kill and/or restart.")
    List<String> events = new ArrayList<>(List.of(GroupSettings.NONE));

    @Option(
            order = 6,
            names = "--protocols",
            paramLabel = "NAME",
            split = ",",
            description = "classic and/or consumer.")
    List<String> protocols = new ArrayList<>(List.of("classic"));

    @Option(
            order = 7,
            names = "--rate",
            paramLabel = "PER-SECOND",
            description = "Checkouts sent per second while the workers consume (0: all at once, a backlog).")
    int rate;

    @Override
    protected boolean startsItsOwnWorkers() {
        return true;
    }

    @Override
    protected LabReport run(StackTarget stack, Progress progress) {
        var settings = new GroupSettings(
                partitionCounts,
                workerCounts,
                keys.all(),
                events,
                protocols,
                backlog.commands(),
                rate,
                warmup.size(),
                backlog.lagInterval(),
                backlog.timeout());
        return new GroupReport(header(stack), settings, GroupExperiment.run(stack, settings, progress));
    }
}
