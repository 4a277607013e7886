package dev.orderpipeline.checkoutlab;

import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * Check the stock read in Java, then write {@code read - quantity}: the read-modify-write of the article, shared by
 * the strategies that differ only in what protects it (nothing, a transaction, a lock in the process, a row lock,
 * SERIALIZABLE), and its counterpart without a window between check and write, {@link #applyConditional}. Both
 * run in the caller's transaction.
 */
@Component
final class ReadCheckWrite {

    private final StockRepository stock;
    private final CheckoutRecorder recorder;

    ReadCheckWrite(StockRepository stock, CheckoutRecorder recorder) {
        this.stock = stock;
        this.recorder = recorder;
    }

    /**
     * Decides the order on {@code product} as read by the caller. The delay sits between the check and the writes,
     * where a slow payment call would be, and only on the way to a sale: a refusal calls nobody.
     */
    void apply(LabOrder order, ProductStock product, Duration delay, StatusWrite write) {
        if (!product.covers(order.quantity())) {
            recorder.reject(order, LabRejectReason.INSUFFICIENT_STOCK, write);
            return;
        }
        Pause.sleep(delay);
        stock.write(product.id(), product.stock() - order.quantity());
        recorder.complete(order, product.price(), write);
    }

    /**
     * Decides the order by the conditional {@code UPDATE ... WHERE stock >= :q} (db-atomic, status-claim): its row
     * count is the check, so no other write can come between; {@code product} gives only the price.
     */
    void applyConditional(LabOrder order, ProductStock product, StatusWrite write) {
        if (stock.decrementIfAvailable(product.id(), order.quantity())) {
            recorder.complete(order, product.price(), write);
        } else {
            recorder.reject(order, LabRejectReason.INSUFFICIENT_STOCK, write);
        }
    }
}
