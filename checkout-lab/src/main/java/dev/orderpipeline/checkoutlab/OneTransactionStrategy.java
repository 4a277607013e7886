package dev.orderpipeline.checkoutlab;

import java.time.Duration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The skeleton of the strategies that decide an order in one READ COMMITTED transaction (naive-tx, for-update,
 * db-atomic): they differ only in what they do inside it, {@link #decide}; the order is returned as the database has
 * it once the transaction ended.
 */
abstract class OneTransactionStrategy implements LabStrategy {

    final StockRepository stock;
    final CheckoutRecorder recorder;
    private final LabProperties properties;
    private final TransactionTemplate transaction;

    OneTransactionStrategy(
            StockRepository stock,
            CheckoutRecorder recorder,
            LabProperties properties,
            PlatformTransactionManager transactions) {
        this.stock = stock;
        this.recorder = recorder;
        this.properties = properties;
        this.transaction = Transactions.readCommitted(transactions);
    }

    /** Decides {@code order} inside the caller's transaction, pausing {@code delay} between check and write. */
    abstract void decide(LabOrder order, Duration delay);

    @Override
    public final LabOrder checkout(LabOrder order, LabOptions options) {
        var delay = properties.delay(options);
        transaction.executeWithoutResult(status -> decide(order, delay));
        return recorder.decided(order.id());
    }
}
