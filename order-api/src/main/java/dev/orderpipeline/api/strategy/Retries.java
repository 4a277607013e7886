package dev.orderpipeline.api.strategy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** The {@code checkout.retries} counter of the retrying strategies. */
final class Retries {

    private Retries() {}

    static Counter counter(MeterRegistry meters, String strategy) {
        return Counter.builder("checkout.retries")
                .description("Attempts a checkout strategy repeated after a conflict")
                .tag("strategy", strategy)
                .register(meters);
    }
}
