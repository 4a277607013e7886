package dev.orderpipeline.checkoutlab;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** The {@code lab.checkout.retries} counter of the retrying strategies. */
final class Retries {

    private Retries() {}

    static Counter counter(MeterRegistry meters, String strategy) {
        return Counter.builder("lab.checkout.retries")
                .description("Attempts a checkout strategy repeated after a conflict")
                .tag("strategy", strategy)
                .register(meters);
    }
}
