package dev.orderpipeline.worker.cart;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The carts this instance's sweeper has given up on: their timeout failed on its own, for a reason retrying will not
 * cure (a constraint the cart breaks). The sweeper leaves them out of its batches from then on, so one such cart never
 * holds back the timeouts of the others; each is logged as an error with what failed and counted in the gauge
 * {@code checkout.sagas.parked}. A parked cart stays CREATED, its lines as they were, until someone repairs it: an
 * instance forgets its parked carts when it restarts, and its sweeper tries each once more.
 */
@Component
class ParkedCarts {

    private static final Logger log = LoggerFactory.getLogger(ParkedCarts.class);

    private final Set<UUID> parked = ConcurrentHashMap.newKeySet();

    ParkedCarts(MeterRegistry meters) {
        Gauge.builder("checkout.sagas.parked", parked, Set::size)
                .description("Carts whose timeout failed on its own, left CREATED and out of this instance's sweeps")
                .register(meters);
    }

    /** Parks the given carts. */
    void park(List<SagaSteps.FailedCart> failed) {
        for (var cart : failed) {
            if (parked.add(cart.orderId())) {
                log.error(
                        "Cart {} cannot be timed out: {}; parked, it stays CREATED and out of this instance's sweeps"
                                + " until it is repaired and the instance restarts",
                        cart.orderId(),
                        cart.reason());
            }
        }
    }

    /** The parked carts' ids. */
    Set<UUID> ids() {
        return Set.copyOf(parked);
    }
}
