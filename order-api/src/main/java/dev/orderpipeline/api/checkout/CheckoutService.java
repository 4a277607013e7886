package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.api.web.ProblemException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Service;

/** Runs one checkout: picks the strategy, does the shared steps, lets the strategy decide, and times it all. */
@Service
final class CheckoutService {

    private final CheckoutStrategies strategies;
    private final CheckoutSteps steps;
    private final MeterRegistry meters;

    CheckoutService(CheckoutStrategies strategies, CheckoutSteps steps, MeterRegistry meters) {
        this.strategies = strategies;
        this.steps = steps;
        this.meters = meters;
    }

    CheckoutReply checkout(UUID orderId, String strategyName, Caller caller, CheckoutOptions options) {
        var strategy = strategies.named(strategyName);
        var started = System.nanoTime();
        var outcome = "error";
        try {
            var order = steps.loadCheckoutable(orderId, caller);
            var reply = strategy.checkout(order, options);
            outcome = reply.outcome();
            return reply;
        } catch (ProblemException ex) {
            outcome = switch (ex.kind().status()) {
                case NOT_FOUND -> "not_found";
                case CONFLICT -> "conflict";
                case SERVICE_UNAVAILABLE -> "unavailable";
                default -> "error";
            };
            throw ex;
        } finally {
            Timer.builder("checkout.requests")
                    .description("Checkout requests by strategy and outcome, from the order lookup to the answer")
                    .tag("strategy", strategy.name())
                    .tag("outcome", outcome)
                    .publishPercentileHistogram()
                    .register(meters)
                    .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }
}
