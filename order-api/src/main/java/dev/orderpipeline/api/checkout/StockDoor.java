package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.ProductStock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * What this instance knows of each product's stock, from the worker's stock topic, and whether a checkout of it is
 * refused at the door. The worker stays the only authority: a stock it published says "sold out" for at most
 * {@code orderpipeline.checkout.sold-out-for} after it was published (or received, whichever is earlier, so that
 * neither a late record nor a clock ahead stretches it); past that, one checkout goes through to the worker, whose
 * transaction publishes the stock again, and the next ones are refused for another such bound meanwhile. A stale
 * "in stock" costs a command the worker refuses; a stale "sold out" lasts at most the bound.
 */
@Component
final class StockDoor {

    private final ConcurrentHashMap<UUID, Known> known = new ConcurrentHashMap<>();
    private final Duration soldOutFor;
    private final Clock clock;

    @Autowired
    StockDoor(CheckoutProperties properties) {
        this(properties.soldOutFor(), Clock.systemUTC());
    }

    StockDoor(Duration soldOutFor, Clock clock) {
        this.soldOutFor = soldOutFor;
        this.clock = clock;
    }

    /** Takes a stock the worker published; an older one than this instance knows is ignored. */
    void learned(ProductStock stock) {
        var received = clock.instant();
        var publishedAt = stock.publishedAt().isBefore(received) ? stock.publishedAt() : received;
        var fresh = new Known(stock.stock(), stock.publishedAt(), publishedAt.plus(soldOutFor));
        known.merge(
                stock.productId(),
                fresh,
                (old, update) -> update.publishedAt().isBefore(old.publishedAt()) ? old : update);
    }

    /**
     * The units known left of the product when a checkout of {@code quantity} units is refused at the door, or null
     * when it goes to the worker.
     */
    @Nullable
    Integer refused(UUID productId, int quantity) {
        while (true) {
            var current = known.get(productId);
            if (current == null || current.stock() >= quantity) {
                return null;
            }
            var now = clock.instant();
            if (now.isBefore(current.trustedUntil())) {
                return current.stock();
            }
            // stale: this checkout goes to the worker, whose answer publishes the stock anew; until then the others
            // are refused for another bound. Lost to another thread: look again
            if (known.replace(productId, current, current.trustedUntil(now.plus(soldOutFor)))) {
                return null;
            }
        }
    }

    /**
     * A product's stock as last published.
     *
     * @param publishedAt when the worker published it, which orders the records of a product
     * @param trustedUntil until when a refusal may rest on it
     */
    private record Known(int stock, Instant publishedAt, Instant trustedUntil) {

        Known trustedUntil(Instant until) {
            return new Known(stock, publishedAt, until);
        }
    }
}
