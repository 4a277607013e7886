package dev.orderpipeline.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AbortedTransactionsTests {

    private static final String METRICS = """
            # HELP lab_checkout_aborted_total Transactions of a checkout strategy aborted as the victim of a deadlock
            # TYPE lab_checkout_aborted_total counter
            lab_checkout_aborted_total{application="order-api",strategy="cart-for-update"} 0.0
            lab_checkout_aborted_total{application="order-api",strategy="cart-for-update-unsorted"} 37.0
            lab_checkout_retries_total{application="order-api",strategy="cart-for-update-unsorted"} 41.0
            """;

    @Test
    void readsTheCounterOfTheStrategyAsked() {
        assertThat(AbortedTransactions.parse(METRICS, "cart-for-update-unsorted"))
                .isEqualTo(37L);
        assertThat(AbortedTransactions.parse(METRICS, "cart-for-update")).isZero();
    }

    @Test
    void aStrategyWithoutTheCounterHasNoCountRatherThanZero() {
        assertThat(AbortedTransactions.parse(METRICS, CompareExperiment.SAGA)).isNull();
        assertThat(AbortedTransactions.parse("", "cart-for-update-unsorted")).isNull();
    }
}
