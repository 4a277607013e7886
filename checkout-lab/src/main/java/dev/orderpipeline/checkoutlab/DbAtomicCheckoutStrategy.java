package dev.orderpipeline.checkoutlab;

import java.time.Duration;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code db-atomic}: one conditional {@code UPDATE ... SET stock = stock - :q WHERE id = :p AND stock >= :q}, whose
 * row count decides COMPLETED or REJECTED; the guarded status write and the payment follow in the same READ
 * COMMITTED transaction. PostgreSQL makes a concurrent update of the row wait and re-evaluates the condition on
 * the new row, so there is no window between check and write. The transaction first locks the buyer's order if
 * it is still CREATED (orders before products, as everywhere); a double click's second transaction waits there,
 * finds the order decided and answers 409 without touching the product.
 *
 * <p>The check-to-write delay sits inside the transaction after reading the product (its price), before the
 * conditional UPDATE: the request holds a connection and its own order's lock through it, but not the product's.
 */
@Component
final class DbAtomicCheckoutStrategy extends OneTransactionStrategy {

    static final String NAME = "db-atomic";

    private final ReadCheckWrite readCheckWrite;

    DbAtomicCheckoutStrategy(
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
        var product = stock.read(order.productId());
        Pause.sleep(delay);
        readCheckWrite.applyConditional(order, product, StatusWrite.IF_CREATED);
    }
}
