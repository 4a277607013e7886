package dev.orderpipeline.checkoutlab;

import org.springframework.stereotype.Component;

/**
 * {@code naive}: the checkout as a first tutorial writes it, kept to show what goes wrong. It reads the product,
 * checks the stock in Java, captures the payment, then writes {@code stock = <read value> - quantity} and the
 * status, each statement committed on its own (no transaction), and the status write is not guarded.
 *
 * <ul>
 *   <li>Two buyers who read the same stock both pass the check; the later stock write overwrites the earlier one
 *       (lost update), and with more buyers than units more orders complete than there were units (oversell).
 *   <li>A double click passes the check twice and captures two payments for one order.
 *   <li>If the stock write fails after the payment was committed, a payment remains on an order that never
 *       completed and the stock was never taken (a half-done checkout).
 * </ul>
 *
 * <p>The check-to-write delay sits after the check, before the payment: where a slow payment call would be.
 */
@Component
final class NaiveCheckoutStrategy implements LabStrategy {

    static final String NAME = "naive";

    private final StockRepository stock;
    private final CheckoutRecorder recorder;
    private final LabProperties properties;

    NaiveCheckoutStrategy(StockRepository stock, CheckoutRecorder recorder, LabProperties properties) {
        this.stock = stock;
        this.recorder = recorder;
        this.properties = properties;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LabOrder checkout(LabOrder order, LabOptions options) {
        var product = stock.read(order.productId());
        if (!product.covers(order.quantity())) {
            recorder.reject(order, LabRejectReason.INSUFFICIENT_STOCK, StatusWrite.UNGUARDED);
            return recorder.decided(order.id());
        }
        Pause.sleep(properties.delay(options));
        recorder.capture(order, product.price());
        // the payment is committed; whatever fails from here on leaves it behind
        stock.write(product.id(), product.stock() - order.quantity());
        recorder.finish(order, LabStatus.COMPLETED, null, StatusWrite.UNGUARDED);
        return recorder.decided(order.id());
    }
}
