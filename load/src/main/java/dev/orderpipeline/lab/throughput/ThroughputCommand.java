package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.LabCommand;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.LabReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/** {@code bin/lab throughput}: the closed-loop throughput and CPU cost per checkout. Fields are filled by picocli. */
@Command(
        name = "throughput",
        description = {
            "A closed loop on one hot product (or spread keys, --keys), as wrk runs one: CONNECTIONS clients, each sending its next checkout as"
                    + " soon as the previous one is answered, per strategy and round (strategies interleaved), each"
                    + " run after an unreported warm-up of the same loop; checkouts/s, decided/s, latency, HTTP"
                    + " statuses, and the CPU milliseconds per decided checkout of order-api, the broker, the worker"
                    + " and PostgreSQL (with its backends), and of the lab itself.",
            "Orders are created before the timed part, set-based in the database when the lab has it.",
            "Then a capacity model: from the CPU per checkout and two probes (how fast one partition drains, how many"
                    + " one-transaction checkouts the hot row admits), the rate each strategy would sustain with 1,"
                    + " 2, 4 and 8 cores per component, its assumptions beside it."
        })
public final class ThroughputCommand extends LabCommand {

    @Option(
            order = 1,
            names = "--strategies",
            paramLabel = "NAME",
            split = ",",
            description = "Strategies to run, comma-separated; default: kafka,db-atomic,for-update.",
            showDefaultValue = Visibility.NEVER)
    List<String> strategies = new ArrayList<>(List.of(Strategies.KAFKA, "db-atomic", "for-update"));

    @Option(order = 2, names = "--connections", paramLabel = "N", description = "Clients of the closed loop.")
    int connections = 50;

    @Option(order = 3, names = "--duration", paramLabel = "SECONDS", description = "How long each measured run lasts.")
    int durationSeconds = 30;

    @Option(
            order = 4,
            names = "--warmup",
            paramLabel = "SECONDS",
            description =
                    "Before each measured run, the same loop this long, not reported (JIT, connections); 0: none.")
    int warmupSeconds = 20;

    @Option(
            order = 5,
            names = "--stack-warmup",
            paramLabel = "SECONDS",
            description = "Before the first round, every strategy on every key distribution for an equal share of this,"
                    + " not reported: a JVM just started spends about twice the CPU per checkout; 0: none.")
    int stackWarmupSeconds = 90;

    @Option(order = 5, names = "--repetitions", paramLabel = "N", description = "Rounds of all strategies.")
    int repetitions = 2;

    @Option(
            order = 6,
            names = "--max-rate",
            paramLabel = "PER-SECOND",
            description = "Checkouts/s the orders of each run are prepared for (set-based, a few seconds per 100,000);"
                    + " a loop that runs out of them stops early and says so.")
    int maxRate = 5000;

    @Option(
            order = 7,
            names = "--keys",
            paramLabel = "DISTRIBUTION",
            split = ",",
            converter = KeyDistribution.Converter.class,
            description = "How the checkouts spread over products, runs for each: hot (one product), uniform:N,"
                    + " zipf:N:s. Spread keys need the database.")
    List<KeyDistribution> keys = new ArrayList<>(List.of(new KeyDistribution.Hot()));

    @Option(
            order = 8,
            names = "--drain-probe",
            paramLabel = "COMMANDS",
            description = "After the runs, the capacity model's probes: COMMANDS checkouts of one product sent to the"
                    + " command topic for the worker to drain (one partition's rate), then the hot row's ceiling"
                    + " (one checkout per transaction for 10 s on each of --hot-row-writers connection counts, no"
                    + " API);"
                    + " 0: no model. Needs the database and the broker.")
    int drainCommands = 100_000;

    @Option(
            order = 9,
            names = "--hot-row-writers",
            paramLabel = "N",
            split = ",",
            description = "Connections of the hot-row probe, all on one product, a run per count; the row admits the"
                    + " best of them.")
    List<Integer> hotRowWriters = new ArrayList<>(List.of(1, 4, 16));

    @Override
    protected boolean comparesLockStrategies() {
        return true;
    }

    @Override
    protected boolean listensToResults() {
        return false;
    }

    @Override
    protected LabReport run(StackTarget target, Progress progress, @Nullable ResultsListener results) {
        var settings = new ThroughputSettings(
                Strategies.named(strategies),
                keys.stream().map(KeyDistribution::label).toList(),
                connections,
                Duration.ofSeconds(durationSeconds),
                Duration.ofSeconds(warmupSeconds),
                Duration.ofSeconds(stackWarmupSeconds),
                repetitions,
                maxRate,
                drainCommands,
                hotRowWriters);
        var outcome = new ThroughputExperiment(target, settings, progress).run();
        return new ThroughputReport(header(target), settings, outcome.runs(), outcome.skipped(), outcome.capacity());
    }
}
