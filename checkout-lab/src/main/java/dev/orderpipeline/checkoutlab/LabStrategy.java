package dev.orderpipeline.checkoutlab;

/**
 * One of the lab's database-lock checkouts, chosen per request by the {@code strategy} parameter. The order it gets
 * has been loaded for its owner and was CREATED when read (see {@link LabCheckout}); the strategy must still guard
 * its writes, since other requests, and the pipeline's worker, may be checking out the same order or product at the
 * same time.
 *
 * <p>A strategy decides the order in the request and returns it as the database now has it. It throws {@link
 * NotCheckoutableException} when it finds the order already claimed or decided. Most strategies check out orders of
 * one product; the cart strategies check out carts; each refuses the other kind with 400 {@code
 * strategy-not-applicable}.
 */
interface LabStrategy {

    /** The value of the {@code strategy} request parameter that selects it: lower case, stable. */
    String name();

    LabOrder checkout(LabOrder order, LabOptions options);

    default LabCart checkout(LabCart cart, LabOptions options) {
        throw LabProblem.notApplicable(name(), cart.id(), "checks out orders of one product; the order is a cart");
    }
}
