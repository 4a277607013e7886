package dev.orderpipeline.checkoutlab;

import java.time.Duration;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code naive-tx}: the naive read-check-write inside one READ COMMITTED transaction, the first fix everybody
 * tries. It makes each checkout atomic (no half-done checkout any more), not serial: two transactions still read
 * the same stock, both pass the check, and the later write of {@code read - quantity} overwrites the earlier one.
 * It still loses updates, oversells, and charges a double click twice (its status write is not guarded).
 *
 * <p>The check-to-write delay sits inside the transaction, after the check, before the writes.
 */
@Component
final class NaiveTxCheckoutStrategy extends OneTransactionStrategy {

    static final String NAME = "naive-tx";

    private final ReadCheckWrite readCheckWrite;

    NaiveTxCheckoutStrategy(
            StockRepository stock,
            ReadCheckWrite readCheckWrite,
            CheckoutRecorder recorder,
            LabProperties properties,
            PlatformTransactionManager transactions) {
        super(stock, recorder, properties, transactions);
        this.readCheckWrite = readCheckWrite;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    void decide(LabOrder order, Duration delay) {
        readCheckWrite.apply(order, stock.read(order.productId()), delay, StatusWrite.UNGUARDED);
    }
}
