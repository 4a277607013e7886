package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.RejectReason;
import dev.orderpipeline.contract.ReservationCommand.Action;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * The saga's meters. {@code checkout.sagas} counts sagas by {@code event}: started, completed, rejected (a line was
 * refused), timed_out, and compensated (rejected or timed out after at least one line was reserved, so releases went
 * out; counted besides rejected or timed_out). {@code checkout.reservations.steps} counts steps by {@code action}
 * (reserve, release) and {@code outcome} (reserved, refused, cancelled, released, duplicate).
 * {@code checkout.sagas.dead-letters} counts the saga's records set aside, by {@code topic} they came from.
 */
@Component
class CartMetrics {

    private static final String SAGAS = "checkout.sagas";

    private static final String STEPS = "checkout.reservations.steps";

    private final MeterRegistry registry;
    private final Counter started;
    private final Counter completed;
    private final Counter rejected;
    private final Counter timedOut;
    private final Counter compensated;
    private final Map<String, Counter> steps = new ConcurrentHashMap<>();

    CartMetrics(MeterRegistry registry) {
        this.registry = registry;
        started = saga(registry, "started");
        completed = saga(registry, "completed");
        rejected = saga(registry, "rejected");
        timedOut = saga(registry, "timed_out");
        compensated = saga(registry, "compensated");
        for (var action : Action.values()) {
            step(action.type(), "duplicate");
        }
    }

    private static Counter saga(MeterRegistry registry, String event) {
        return Counter.builder(SAGAS)
                .description("Cart sagas by what happened to them; compensated counts rejected sagas that released"
                        + " reservations, besides rejected or timed_out")
                .tag("event", event)
                .register(registry);
    }

    private Counter step(String action, String outcome) {
        return steps.computeIfAbsent(
                action + "/" + outcome,
                key -> Counter.builder(STEPS)
                        .description("Reservation steps by action and by what they did to their line")
                        .tag("action", action)
                        .tag("outcome", outcome)
                        .register(registry));
    }

    void started(int sagas) {
        started.increment(sagas);
    }

    void decided(List<CartDecision> decisions) {
        for (var decision : decisions) {
            if (!decision.changesOrder()) {
                continue;
            }
            if (decision.outcome() == CheckoutOutcome.COMPLETED) {
                completed.increment();
            } else if (decision.rejectReason() == RejectReason.RESERVATION_TIMEOUT) {
                timedOut.increment();
            } else {
                rejected.increment();
            }
            if (!decision.released().isEmpty()) {
                compensated.increment();
            }
        }
    }

    void deadLettered(String topic, int records) {
        Counter.builder("checkout.sagas.dead-letters")
                .description("Records of the saga's topics set aside on their dead-letter topics")
                .tag("topic", topic)
                .register(registry)
                .increment(records);
    }

    void stepsApplied(Reservations applied) {
        for (var reply : applied.replies()) {
            var outcome = reply.duplicate()
                    ? "duplicate"
                    : reply.reply().outcome().name().toLowerCase(Locale.ROOT);
            step(reply.reply().action().type(), outcome).increment();
        }
    }
}
