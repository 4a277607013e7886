package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.chaos.ChaosJudge.Criterion;
import dev.orderpipeline.lab.chaos.ChaosJudge.Findings;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The broker stopped (controlled shutdown), left down for {@code brokerDown}, started again on the same data. */
final class BrokerRestart implements Fault {

    @Override
    public Duration planned(ChaosSettings settings) {
        return Duration.ofSeconds(15).plus(settings.brokerDown()).plus(settings.recovery());
    }

    @Override
    public void inject(FaultRun run) {
        var down = run.settings().brokerDown();
        run.once(FaultKind.BROKER_RESTART, "broker down " + down.toSeconds() + " s", "broker restart", start -> {
            var broker = run.stack()
                    .broker()
                    .orElseThrow(() -> new IllegalStateException("the stack uses an external Kafka cluster"));
            broker.stop();
            var stopped = run.clock().now();
            FaultRun.pause(down);
            var starting = run.clock().now();
            broker.start();
            return run.done(String.format(
                    Locale.ROOT,
                    "controlled stop took %.1f s, down %.1f s, start (same data, same port) took %.1f s",
                    stopped - start,
                    starting - stopped,
                    run.clock().now() - starting));
        });
    }

    @Override
    public List<Criterion> criteria() {
        return List.of(BrokerRestart::unavailableWhileDown);
    }

    /** While the broker is down the API says so with a 503, neither a 500 nor silence. */
    static Optional<Check> unavailableWhileDown(Findings findings) {
        return findings.phases().stream()
                .filter(phase -> phase.fault() == FaultKind.BROKER_RESTART)
                .findFirst()
                .map(phase -> new Check(
                        "503 (not 500, not silence) while the broker is down",
                        "503 > 0, 5xx other than 503 = 0",
                        phase.count("503") + " × 503, " + phase.serverErrors() + " × other 5xx, " + phase.other()
                                + " timeouts or errors",
                        phase.count("503") > 0 && phase.serverErrors() == 0));
    }
}
