package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.order.Order;
import dev.orderpipeline.api.order.OrderNotFoundException;
import dev.orderpipeline.api.order.OrderRepository;
import dev.orderpipeline.api.order.OrderStatus;
import dev.orderpipeline.api.product.ProductRepository;
import dev.orderpipeline.api.web.Caller;
import java.math.BigDecimal;
import java.util.UUID;
import org.springframework.stereotype.Component;

/** The steps every checkout strategy shares, written once. */
@Component
public final class CheckoutSteps {

    private final OrderRepository orders;
    private final ProductRepository products;

    CheckoutSteps(OrderRepository orders, ProductRepository products) {
        this.orders = orders;
        this.products = products;
    }

    /**
     * The caller's order, if it can be checked out. This is a fast refusal, not a guard: a strategy that writes
     * must still make "the order is CREATED" part of its own statement or lock.
     *
     * @throws OrderNotFoundException when there is no such order or it belongs to someone else
     * @throws OrderNotCheckoutableException when it is not CREATED
     */
    public Order loadCheckoutable(UUID orderId, Caller caller) {
        var order = orders.findOwned(orderId, caller.userId()).orElseThrow(() -> new OrderNotFoundException(orderId));
        if (order.status() != OrderStatus.CREATED) {
            throw new OrderNotCheckoutableException(order.id(), order.status());
        }
        return order;
    }

    /** The payment amount of an order at its product's current price. */
    public PricedOrder price(Order order) {
        var product = products.findById(order.productId())
                .orElseThrow(() -> new IllegalStateException(
                        "order " + order.id() + " references product " + order.productId() + ", which is gone"));
        return price(order, product.price());
    }

    /** The payment amount of an order at a unit price the caller has just read: unit price times quantity. */
    public PricedOrder price(Order order, BigDecimal unitPrice) {
        return new PricedOrder(order, unitPrice.multiply(BigDecimal.valueOf(order.quantity())));
    }
}
