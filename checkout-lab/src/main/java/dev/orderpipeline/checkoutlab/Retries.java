package dev.orderpipeline.checkoutlab;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** The counters of the retrying strategies: {@code lab.checkout.retries} and {@code lab.checkout.aborted}. */
final class Retries {

    private Retries() {}

    static Counter counter(MeterRegistry meters, String strategy) {
        return Counter.builder("lab.checkout.retries")
                .description("Attempts a checkout strategy repeated after a conflict")
                .tag("strategy", strategy)
                .register(meters);
    }

    /**
     * Transactions of a strategy that PostgreSQL aborted as deadlock victims (SQLSTATE 40P01); each is retried while
     * attempts are left. Sorted locking keeps it at zero among the strategies that sort.
     */
    static Counter aborted(MeterRegistry meters, String strategy) {
        return Counter.builder("lab.checkout.aborted")
                .description("Transactions of a checkout strategy aborted as the victim of a deadlock")
                .tag("strategy", strategy)
                .register(meters);
    }
}
