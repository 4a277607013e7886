package dev.orderpipeline.checkoutlab;

import java.math.BigDecimal;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Records a decision the same way for every strategy (status, reject reason, a CAPTURED payment of price times
 * quantity), so that their results compare row for row. A guarded status write that finds the order no longer in
 * the expected status throws {@link NotCheckoutableException}, which rolls back the caller's transaction.
 */
@Component
final class CheckoutRecorder {

    private final OrderStatusRepository statuses;
    private final PaymentRepository payments;
    private final LabOrders orders;

    CheckoutRecorder(OrderStatusRepository statuses, PaymentRepository payments, LabOrders orders) {
        this.statuses = statuses;
        this.payments = payments;
        this.orders = orders;
    }

    /** COMPLETED, then the payment at {@code unitPrice} times the quantity. */
    void complete(LabOrder order, BigDecimal unitPrice, StatusWrite write) {
        finish(order, LabStatus.COMPLETED, null, write);
        capture(order, unitPrice);
    }

    void reject(LabOrder order, LabRejectReason reason, StatusWrite write) {
        finish(order, LabStatus.REJECTED, reason, write);
    }

    /** The payment alone, for the naive strategy, which writes it before anything else. */
    void capture(LabOrder order, BigDecimal unitPrice) {
        payments.capture(new PricedOrder(order, unitPrice.multiply(BigDecimal.valueOf(order.quantity()))));
    }

    /** The status alone, for the naive strategy. */
    void finish(LabOrder order, LabStatus status, @Nullable LabRejectReason reason, StatusWrite write) {
        finish(order.id(), status, reason, write);
    }

    /** The status alone, of any order, a cart's too. */
    void finish(UUID orderId, LabStatus status, @Nullable LabRejectReason reason, StatusWrite write) {
        if (!statuses.finish(orderId, status, reason, write)) {
            throw notCheckoutable(orderId);
        }
    }

    /**
     * The first statement of a correct strategy's transaction: locks the order if it is still in {@code expected}
     * status, or throws {@link NotCheckoutableException}, which rolls the transaction back. Orders are locked
     * before products everywhere (here and in the worker), so a double click queues on its own order instead of
     * on the hot product row, and no two transactions lock the same rows in opposite orders.
     */
    void lockOrder(LabOrder order, LabStatus expected) {
        lockOrder(order.id(), expected);
    }

    /** {@link #lockOrder(LabOrder, LabStatus)} for any order, a cart's too. */
    void lockOrder(UUID orderId, LabStatus expected) {
        if (!statuses.lockIf(orderId, expected)) {
            throw notCheckoutable(orderId);
        }
    }

    NotCheckoutableException notCheckoutable(UUID orderId) {
        return new NotCheckoutableException(orderId, statuses.status(orderId).orElseThrow(() -> gone(orderId)));
    }

    /** The 200 reply with the order as the database now has it. */
    LabOrder decided(UUID orderId) {
        return orders.findById(orderId).orElseThrow(() -> gone(orderId));
    }

    private static IllegalStateException gone(UUID orderId) {
        return new IllegalStateException("order " + orderId + " vanished during checkout");
    }
}
