package dev.orderpipeline.api.order;

import dev.orderpipeline.api.product.ProductNotFoundException;
import dev.orderpipeline.api.product.ProductRepository;
import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.api.web.ProblemException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Places orders: each request once, or, with an idempotency key, each key once. A keyed request inserts its order and
 * claims its key in one transaction, so that of two requests racing with one key, one places the order and the other
 * waits for it on the key's primary key, rolls its own order back and answers with the first one's.
 */
@Service
final class OrderPlacement {

    private static final Logger log = LoggerFactory.getLogger(OrderPlacement.class);

    /** A claim lost to a key that is then gone again (expired and deleted in between) is tried again, this often. */
    private static final int ATTEMPTS = 3;

    private final OrderRepository orders;
    private final ProductRepository products;
    private final OrderIdempotencyKeys keys;
    private final TransactionTemplate transactions;
    private final OrderProperties properties;

    OrderPlacement(
            OrderRepository orders,
            ProductRepository products,
            OrderIdempotencyKeys keys,
            TransactionTemplate transactions,
            OrderProperties properties) {
        this.orders = orders;
        this.products = products;
        this.keys = keys;
        this.transactions = transactions;
        this.properties = properties;
    }

    /** An order placed, or the order an earlier request with the same key placed. */
    record Placed(Order order, boolean replayed) {}

    /** Places a request without a key: a new order every time. */
    Order place(Placement placement) {
        return switch (placement) {
            case NewOrder single -> insert(single);
            case NewCart cart -> insert(cart);
        };
    }

    /**
     * Places the request once per key: the first request with the key places its order; the same request again
     * (even at the same time) gets that order; another request with the key is refused.
     */
    Placed place(Caller caller, IdempotencyKey key, RequestHash request, Placement placement) {
        for (var attempt = 1; attempt <= ATTEMPTS; attempt++) {
            var used = keys.find(caller.userId(), key);
            if (used.isPresent()) {
                return replayed(caller, key, request, used.get());
            }
            var placed = transactions.execute(status -> {
                var order = place(placement);
                if (keys.claim(caller.userId(), key, request, order.id(), properties.idempotencyKeyRetention())) {
                    return order;
                }
                // another request holds the key: this order never happened
                status.setRollbackOnly();
                return null;
            });
            if (placed != null) {
                return new Placed(placed, false);
            }
            log.debug("Idempotency key {} of {} was claimed by a concurrent request", key, caller.userId());
        }
        throw new IllegalStateException("idempotency key " + key + " was claimed " + ATTEMPTS
                + " times by requests whose key then could not be read");
    }

    private Placed replayed(Caller caller, IdempotencyKey key, RequestHash request, OrderIdempotencyKeys.Used used) {
        if (!used.requestHash().equals(request)) {
            throw new IdempotencyKeyReusedException(key, used.orderId());
        }
        // the key is the caller's, and so is the order it placed
        var order = orders.findOwned(used.orderId(), caller.userId())
                .orElseThrow(() -> new IllegalStateException(
                        "idempotency key " + key + " names order " + used.orderId() + ", which is not there"));
        return new Placed(order, true);
    }

    private Order insert(NewOrder newOrder) {
        // the insert decided; reading the product only tells which of its two guards said no
        return orders.insert(newOrder)
                .orElseThrow(() -> products.findById(newOrder.productId())
                        .<ProblemException>map(product -> OrderAmountTooLargeException.of(newOrder, product.price()))
                        .orElseGet(() -> new ProductNotFoundException(newOrder.productId())));
    }

    private Order insert(NewCart cart) {
        // as for one product: the insert decided, and the reads only tell which guard said no
        return orders.insert(cart)
                .orElseThrow(() -> orders.firstUnknownProduct(cart)
                        .<ProblemException>map(ProductNotFoundException::new)
                        .orElseGet(() -> OrderAmountTooLargeException.of(cart, orders.amount(cart))));
    }
}
