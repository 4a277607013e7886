package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.api.checkout.CheckoutProperties;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code app-lock}: the naive-tx read-check-write, serialized per product by a lock inside this process, with the
 * order re-read (and locked, if still CREATED) and the status write guarded once the lock is held. Exact with one instance of the API; two
 * instances have a lock each, so their checkouts of the same product race exactly like naive-tx. The locks are
 * striped ({@link ProductLocks}), so memory is bounded; the wait for one is bounded too (503 checkout-busy).
 *
 * <p>The check-to-write delay sits inside the lock and the transaction, after the check, before the writes: every
 * other buyer of the product (or of a product on the same stripe) on this instance waits through it.
 */
@Component
final class AppLockCheckoutStrategy implements LabStrategy {

    static final String NAME = "app-lock";

    private final StockRepository stock;
    private final ReadCheckWrite readCheckWrite;
    private final CheckoutRecorder recorder;
    private final LabProperties properties;
    private final CheckoutProperties checkout;
    private final TransactionTemplate transaction;
    private final ProductLocks locks;

    AppLockCheckoutStrategy(
            StockRepository stock,
            ReadCheckWrite readCheckWrite,
            CheckoutRecorder recorder,
            LabProperties properties,
            CheckoutProperties checkout,
            PlatformTransactionManager transactions) {
        this.stock = stock;
        this.readCheckWrite = readCheckWrite;
        this.recorder = recorder;
        this.properties = properties;
        this.checkout = checkout;
        this.transaction = Transactions.readCommitted(transactions);
        this.locks = new ProductLocks(properties.appLockStripes());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LabOrder checkout(LabOrder order, LabOptions options) {
        var delay = properties.delay(options);
        var lock = locks.forProduct(order.productId());
        var timeout = properties.appLockTimeout();
        try {
            if (!lock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw LabProblem.busy(order.id(), order.productId(), timeout, checkout.retryAfter());
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted while waiting for the lock of product " + order.productId(), ex);
        }
        try {
            transaction.executeWithoutResult(status -> {
                // what was read before the lock may be stale: a double click decided the order while we waited
                recorder.lockOrder(order, LabStatus.CREATED);
                readCheckWrite.apply(order, stock.read(order.productId()), delay, StatusWrite.IF_CREATED);
            });
        } finally {
            lock.unlock();
        }
        return recorder.decided(order.id());
    }
}
