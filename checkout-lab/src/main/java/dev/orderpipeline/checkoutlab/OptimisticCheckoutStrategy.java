package dev.orderpipeline.checkoutlab;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code optimistic}: read stock and the row's version, check in Java, then {@code UPDATE product SET stock = :new
 * WHERE id = :p AND xmin = :v}. The version is PostgreSQL's {@code xmin}, which every writer of the row changes (the
 * worker, the other strategies), so a decrement by a writer that knows nothing of this token still makes the write
 * miss: a version column bumped only by this strategy would let it overwrite them. Zero rows means somebody wrote
 * the product since the read: nothing
 * was written yet, so the attempt's transaction ends, and after a short random pause the strategy reads again and
 * retries. After the configured number of attempts it gives up and records REJECTED with
 * OPTIMISTIC_RETRIES_EXHAUSTED. Nobody waits on the product's lock; the losers pay in latency instead, which
 * grows with the number of buyers of the product.
 *
 * <p>A refusal for lack of stock writes no product row: it relies on stock only going down, so a read of too
 * little stays true. Each attempt first locks the buyer's own order if still CREATED (uncontended but for a
 * double click; orders before products, as everywhere) and the status write is guarded: a double click's second
 * request finds the order decided and answers 409.
 *
 * <p>The check-to-write delay sits in every attempt after the read and the check, before the versioned write.
 */
@Component
final class OptimisticCheckoutStrategy implements LabStrategy {

    static final String NAME = "optimistic";

    private static final Logger log = LoggerFactory.getLogger(OptimisticCheckoutStrategy.class);

    private final StockRepository stock;
    private final CheckoutRecorder recorder;
    private final LabProperties properties;
    private final TransactionTemplate transaction;
    private final Counter retries;

    OptimisticCheckoutStrategy(
            StockRepository stock,
            CheckoutRecorder recorder,
            LabProperties properties,
            PlatformTransactionManager transactions,
            MeterRegistry meters) {
        this.stock = stock;
        this.recorder = recorder;
        this.properties = properties;
        this.transaction = Transactions.readCommitted(transactions);
        this.retries = Retries.counter(meters, NAME);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LabOrder checkout(LabOrder order, LabOptions options) {
        var delay = properties.delay(options);
        var attempts = properties.optimisticAttempts(options);
        for (var attempt = 1; attempt <= attempts; attempt++) {
            if (attempt > 1) {
                retries.increment();
                Pause.jitter(properties.retryPause());
            }
            var decided = Boolean.TRUE.equals(transaction.execute(status -> attempt(order, delay)));
            if (decided) {
                return recorder.decided(order.id());
            }
        }
        log.debug(
                "Order {}: the version of product {} changed on all {} attempts",
                order.id(),
                order.productId(),
                attempts);
        transaction.executeWithoutResult(
                status -> recorder.reject(order, LabRejectReason.OPTIMISTIC_RETRIES_EXHAUSTED, StatusWrite.IF_CREATED));
        return recorder.decided(order.id());
    }

    /** One attempt in its own transaction: true when the order was decided, false when the version moved. */
    private boolean attempt(LabOrder order, Duration delay) {
        recorder.lockOrder(order, LabStatus.CREATED);
        var product = stock.read(order.productId());
        if (!product.covers(order.quantity())) {
            recorder.reject(order, LabRejectReason.INSUFFICIENT_STOCK, StatusWrite.IF_CREATED);
            return true;
        }
        Pause.sleep(delay);
        if (!stock.writeIfVersion(product.id(), product.stock() - order.quantity(), product.rowVersion())) {
            return false;
        }
        recorder.complete(order, product.price(), StatusWrite.IF_CREATED);
        return true;
    }
}
