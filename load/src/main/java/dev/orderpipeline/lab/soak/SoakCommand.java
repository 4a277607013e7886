package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.LabCommand;
import dev.orderpipeline.lab.Options;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.load.OpenLoad;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.LabReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bin/lab soak}: sustained open-model load. Fields are filled by picocli. */
@Command(
        name = "soak",
        description = {
            "Sustained open-model load on one hot product (or spread keys, --keys) with a large stock: checkouts start at a target rate"
                    + " (not when earlier ones are answered) for a given duration, per strategy and rate; achieved rate,"
                    + " latency and CPU per checkout, and the rate where each strategy saturates (achieved rate below the"
                    + " target, p99 over the limit, or arrivals dropped at the in-flight bound).",
            "Orders are created before the timed phase, which is checkouts only.",
            "With --drain-probe, then a capacity model: from the CPU per checkout and two probes (how fast one partition"
                    + " drains, how many one-transaction checkouts the hot row admits), the rate each strategy would"
                    + " sustain with 1, 2, 4 and 8 cores per component, its assumptions beside it."
        })
public final class SoakCommand extends LabCommand {

    @Option(
            order = 2,
            names = "--rates",
            paramLabel = "PER-SECOND",
            split = ",",
            description = "Target arrival rates, rising, run one after the other, e.g. 50,100,200,400.")
    List<Integer> rates = new ArrayList<>(List.of(100));

    @Option(
            order = 3,
            names = "--duration",
            paramLabel = "SECONDS",
            description = "How long each run schedules arrivals.")
    int durationSeconds = 30;

    @Mixin
    Options.Strategies strategies = new Options.Strategies();

    @Mixin
    Options.Keys keys = new Options.Keys(KeyDistribution.HOT);

    @Mixin
    Options.Warmup warmup = new Options.Warmup(5);

    @Option(
            order = 12,
            names = "--drain-probe",
            paramLabel = "COMMANDS",
            description = "After the runs, the capacity model's probes: COMMANDS checkouts of one product sent to the"
                    + " command topic for the stack's worker to drain (one partition's rate, the drain's own code),"
                    + " then the hot row's ceiling (one checkout per transaction for 10 s on 1, 4 and 16 connections,"
                    + " no API); 0: no model. Needs the database and the broker.")
    int drainCommands;

    @Override
    protected boolean comparesLockStrategies() {
        return true;
    }

    @Override
    protected LabReport run(StackTarget target, Progress progress) {
        var settings = new SoakSettings(
                strategies.or(Strategies.ALL),
                keys.all(),
                rates,
                Duration.ofSeconds(durationSeconds),
                OpenLoad.DEFAULT_MAX_IN_FLIGHT,
                Duration.ofSeconds(warmup.size()));
        return new SoakExperiment(
                        target,
                        settings,
                        progress,
                        Duration.ofSeconds(targetOptions.requestTimeoutSeconds()),
                        drainCommands)
                .run(() -> header(target));
    }
}
