package dev.orderpipeline.api.strategy;

import dev.orderpipeline.api.checkout.CheckoutReply;
import dev.orderpipeline.api.checkout.CheckoutSteps;
import dev.orderpipeline.api.checkout.OrderNotCheckoutableException;
import dev.orderpipeline.api.order.Order;
import dev.orderpipeline.api.order.OrderRepository;
import dev.orderpipeline.api.order.OrderStatus;
import dev.orderpipeline.contract.RejectReason;
import java.math.BigDecimal;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Records a decision the same way for every strategy (status, reject reason, a CAPTURED payment of price times
 * quantity), so that their results compare row for row. A guarded status write that finds the order no longer in
 * the expected status throws {@link OrderNotCheckoutableException}, which rolls back the caller's transaction.
 */
@Component
final class CheckoutRecorder {

    private final OrderStatusRepository statuses;
    private final PaymentRepository payments;
    private final OrderRepository orders;
    private final CheckoutSteps steps;

    CheckoutRecorder(
            OrderStatusRepository statuses, PaymentRepository payments, OrderRepository orders, CheckoutSteps steps) {
        this.statuses = statuses;
        this.payments = payments;
        this.orders = orders;
        this.steps = steps;
    }

    /** COMPLETED, then the payment at {@code unitPrice} times the quantity. */
    void complete(Order order, BigDecimal unitPrice, StatusWrite write) {
        finish(order, OrderStatus.COMPLETED, null, write);
        capture(order, unitPrice);
    }

    void reject(Order order, RejectReason reason, StatusWrite write) {
        finish(order, OrderStatus.REJECTED, reason, write);
    }

    /** The payment alone, for the naive strategy, which writes it before anything else. */
    void capture(Order order, BigDecimal unitPrice) {
        payments.capture(steps.price(order, unitPrice));
    }

    /** The status alone, for the naive strategy. */
    void finish(Order order, OrderStatus status, @Nullable RejectReason reason, StatusWrite write) {
        if (!statuses.finish(order.id(), status, reason, write)) {
            throw notCheckoutable(order.id());
        }
    }

    /**
     * The first statement of a correct strategy's transaction: locks the order if it is still in {@code expected}
     * status, or throws {@link OrderNotCheckoutableException}, which rolls the transaction back. Orders are locked
     * before products everywhere (here and in the worker), so a double click queues on its own order instead of
     * on the hot product row, and no two transactions lock the same rows in opposite orders.
     */
    void lockOrder(Order order, OrderStatus expected) {
        if (!statuses.lockIf(order.id(), expected)) {
            throw notCheckoutable(order.id());
        }
    }

    OrderNotCheckoutableException notCheckoutable(UUID orderId) {
        return new OrderNotCheckoutableException(
                orderId, statuses.status(orderId).orElseThrow(() -> gone(orderId)));
    }

    /** The 200 reply with the order as the database now has it. */
    CheckoutReply decided(UUID orderId) {
        return CheckoutReply.decided(orders.findById(orderId).orElseThrow(() -> gone(orderId)));
    }

    private static IllegalStateException gone(UUID orderId) {
        return new IllegalStateException("order " + orderId + " vanished during checkout");
    }
}
