package dev.orderpipeline.checkoutlab;

import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code naive-tx}: the naive read-check-write inside one READ COMMITTED transaction, the first fix everybody
 * tries. It makes each checkout atomic (no half-done checkout any more), not serial: two transactions still read
 * the same stock, both pass the check, and the later write of {@code read - quantity} overwrites the earlier one.
 * It still loses updates, oversells, and charges a double click twice (its status write is not guarded).
 *
 * <p>The check-to-write delay sits inside the transaction, after the check, before the writes.
 */
@Component
final class NaiveTxCheckoutStrategy implements LabStrategy {

    static final String NAME = "naive-tx";

    private final StockRepository stock;
    private final ReadCheckWrite readCheckWrite;
    private final CheckoutRecorder recorder;
    private final LabProperties properties;
    private final TransactionTemplate transaction;

    NaiveTxCheckoutStrategy(
            StockRepository stock,
            ReadCheckWrite readCheckWrite,
            CheckoutRecorder recorder,
            LabProperties properties,
            PlatformTransactionManager transactions) {
        this.stock = stock;
        this.readCheckWrite = readCheckWrite;
        this.recorder = recorder;
        this.properties = properties;
        this.transaction = Transactions.readCommitted(transactions);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LabOrder checkout(LabOrder order, LabOptions options) {
        var delay = properties.delay(options);
        transaction.executeWithoutResult(
                status -> readCheckWrite.apply(order, stock.read(order.productId()), delay, StatusWrite.UNGUARDED));
        return recorder.decided(order.id());
    }
}
