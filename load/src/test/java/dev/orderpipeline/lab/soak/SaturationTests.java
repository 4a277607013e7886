package dev.orderpipeline.lab.soak;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.measure.Latency;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SaturationTests {

    private final SoakSettings settings = new SoakSettings(
            List.of("kafka"), List.of(KeyDistribution.HOT), List.of(100), Duration.ofSeconds(10), 50, Duration.ZERO);

    @Test
    void keepsUpAtNinetyFivePercentOfTheTargetWithP99UnderTheLimitAndNothingDropped() {
        var reasons = settings.saturationReasons(100, 95.0, p99(999), p99(999), kafka(100, 100), 0);

        assertThat(reasons).isEmpty();
    }

    @Test
    void saturatesBelowNinetyFivePercentOfTheTarget() {
        var reasons = settings.saturationReasons(100, 94.9, p99(10), null, null, 0);

        assertThat(reasons).containsExactly("achieved 94.9/s of 100/s");
    }

    @Test
    void saysEveryReasonAtOnceInTheOrderTheyAreChecked() {
        var reasons = settings.saturationReasons(100, 40.0, p99(1500), p99(2500), kafka(400, 390), 7);

        assertThat(reasons)
                .containsExactly(
                        "achieved 40.0/s of 100/s",
                        "p99 1500 ms over 1000 ms",
                        "7 arrivals dropped at 50 in flight",
                        "decision p99 2500 ms over 1000 ms",
                        "10 accepted checkouts without a decision within 10 s");
    }

    @Test
    void judgesTheDecisionOfKafkaRunsByItsOwnP99() {
        var reasons = settings.saturationReasons(100, 100.0, p99(20), p99(1001), kafka(1000, 1000), 0);

        assertThat(reasons).containsExactly("decision p99 1001 ms over 1000 ms");
    }

    private static Latency p99(double millis) {
        return new Latency(100, millis / 2, millis, millis, millis);
    }

    private static SoakRun.KafkaFigures kafka(long accepted, long decided) {
        return new SoakRun.KafkaFigures(accepted, decided, 10, 0);
    }
}
