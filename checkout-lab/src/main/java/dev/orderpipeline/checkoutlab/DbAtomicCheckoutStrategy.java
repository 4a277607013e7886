package dev.orderpipeline.checkoutlab;

import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

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
final class DbAtomicCheckoutStrategy implements LabStrategy {

    static final String NAME = "db-atomic";

    private final StockRepository stock;
    private final CheckoutRecorder recorder;
    private final LabProperties properties;
    private final TransactionTemplate transaction;

    DbAtomicCheckoutStrategy(
            StockRepository stock,
            CheckoutRecorder recorder,
            LabProperties properties,
            PlatformTransactionManager transactions) {
        this.stock = stock;
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
        transaction.executeWithoutResult(status -> {
            recorder.lockOrder(order, LabStatus.CREATED);
            var product = stock.read(order.productId());
            Pause.sleep(delay);
            if (stock.decrementIfAvailable(product.id(), order.quantity())) {
                recorder.complete(order, product.price(), StatusWrite.IF_CREATED);
            } else {
                recorder.reject(order, LabRejectReason.INSUFFICIENT_STOCK, StatusWrite.IF_CREATED);
            }
        });
        return recorder.decided(order.id());
    }
}
