package dev.orderpipeline.checkoutlab;

import java.time.Duration;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code for-update}: the same read-check-write as naive-tx, but the read is {@code SELECT ... FOR UPDATE}: the
 * product row stays locked until the transaction ends, so the next buyer reads the stock only after this one
 * committed its write. The buyer's order is locked first if still CREATED (orders before products, as
 * everywhere) and the status write is guarded; a double click waits on the order's lock, finds the order decided
 * and answers 409.
 *
 * <p>The check-to-write delay sits inside the transaction after the lock and the check, before the writes: every
 * other buyer of the product waits through it, which is the price of this strategy.
 */
@Component
final class ForUpdateCheckoutStrategy extends OneTransactionStrategy {

    static final String NAME = "for-update";

    private final ReadCheckWrite readCheckWrite;

    ForUpdateCheckoutStrategy(
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
        recorder.lockOrder(order, LabStatus.CREATED);
        readCheckWrite.apply(order, stock.readForUpdate(order.productId()), delay, StatusWrite.IF_CREATED);
    }
}
