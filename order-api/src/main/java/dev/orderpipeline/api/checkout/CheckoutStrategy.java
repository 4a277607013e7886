package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.order.Order;

/**
 * One way to check out an order, chosen per request by the {@code strategy} parameter. The order it gets has
 * been loaded for its owner and was CREATED when read (see {@link CheckoutSteps}); the strategy must still guard
 * its writes, since other requests may be checking out the same order or product at the same time.
 *
 * <p>A strategy either decides the order in the request and answers {@link CheckoutReply.Decided} with the final
 * order, or hands it on and answers {@link CheckoutReply.Accepted}. It throws {@link
 * OrderNotCheckoutableException} when it finds the order already claimed or decided.
 */
public interface CheckoutStrategy {

    /** The value of the {@code strategy} request parameter that selects it: lower case, stable. */
    String name();

    CheckoutReply checkout(Order order, CheckoutOptions options);
}
