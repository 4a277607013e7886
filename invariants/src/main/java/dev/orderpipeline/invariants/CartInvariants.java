package dev.orderpipeline.invariants;

/**
 * What the database says about one product's cart lines and the carts that hold them (orders of several products,
 * checked out by a reservation saga).
 *
 * @param soldQuantity units of the product on SOLD lines
 * @param heldQuantity units of the product held by carts: on RESERVED and RELEASING lines
 * @param completedCarts COMPLETED carts with a line of the product
 * @param rejectedCarts REJECTED carts with a line of the product
 * @param cartsNotFinal carts with a line of the product that are not decided yet
 * @param completedCartsNotAllSold COMPLETED carts with a line that is not SOLD (a completion without its stock)
 * @param rejectedCartsHolding REJECTED carts with a line RESERVED or SOLD (stock kept by a rejected order)
 * @param payments payment rows of those carts
 * @param cartsPaidMoreThanOnce those carts with two or more payments
 * @param paymentsWithoutCompletion payments of those carts that are not COMPLETED
 */
public record CartInvariants(
        long soldQuantity,
        long heldQuantity,
        long completedCarts,
        long rejectedCarts,
        long cartsNotFinal,
        long completedCartsNotAllSold,
        long rejectedCartsHolding,
        long payments,
        long cartsPaidMoreThanOnce,
        long paymentsWithoutCompletion) {

    /** A product no cart has a line of. */
    public static final CartInvariants NONE = new CartInvariants(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
