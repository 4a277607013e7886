package dev.orderpipeline.lab.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CheckoutCostTests {

    private static final ResourceUsage USAGE = new ResourceUsage(
            List.of(
                    new ResourceUsage.ProcessUsage("order-api", 300, 1.2),
                    new ResourceUsage.ProcessUsage("kafka-broker", 400, 0.15),
                    new ResourceUsage.ProcessUsage("checkout-worker", 250, 0.6),
                    new ResourceUsage.ProcessUsage("lab", 500, 2.4)),
            new ResourceUsage.DatabaseUsage(1.8, 0.45, 1_536_000L));

    @Test
    void dividesCpuSecondsLockWaitsAndWalByTheDecidedCheckouts() {
        var cost = CheckoutCost.of(USAGE, 600);

        assertThat(cost).isEqualTo(new CheckoutCost(600, 2.0, 0.25, 1.0, 3.0, 6.25, 0.75, 2560L));
        assertThat(cost.cpuMsByComponent())
                .containsExactly(
                        java.util.Map.entry("order-api", 2.0),
                        java.util.Map.entry("kafka-broker", 0.25),
                        java.util.Map.entry("checkout-worker", 1.0),
                        java.util.Map.entry("postgresql", 3.0));
    }

    @Test
    void leavesWhatWasNotMeasuredNullAndTotalsTheRest() {
        var apiOnly = new ResourceUsage(
                List.of(new ResourceUsage.ProcessUsage("order-api", 300, 0.9)),
                new ResourceUsage.DatabaseUsage(null, null, null));

        assertThat(CheckoutCost.of(apiOnly, 300))
                .isEqualTo(new CheckoutCost(300, 3.0, null, null, null, 3.0, null, null));
        assertThat(CheckoutCost.of(
                        new ResourceUsage(List.of(), new ResourceUsage.DatabaseUsage(null, null, null)), 300))
                .isEqualTo(new CheckoutCost(300, null, null, null, null, null, null, null));
    }

    @Test
    void hasNoCostWithoutADecidedCheckout() {
        assertThat(CheckoutCost.of(USAGE, 0)).isNull();
    }

    @Test
    void readsAProcessFromAReportWrittenBeforeCpuSecondsWereKeptAsNotMeasured() {
        var old = new ResourceUsage(
                List.of(new ResourceUsage.ProcessUsage("order-api", 300, null)),
                new ResourceUsage.DatabaseUsage(0.6, null, null));

        assertThat(CheckoutCost.of(old, 200)).isEqualTo(new CheckoutCost(200, null, null, null, 3.0, 3.0, null, null));
    }
}
