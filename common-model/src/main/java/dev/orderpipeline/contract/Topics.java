package dev.orderpipeline.contract;

/** Topic names. Partition counts and replication are configuration, not part of the contract. */
public final class Topics {

    /** Checkout commands, keyed by product id so that one partition consumer owns each product's commands. */
    public static final String CHECKOUT_COMMANDS = "checkout.commands";

    /** Outcomes decided by the worker, keyed by order id; every order-api instance listens to all of them. */
    public static final String CHECKOUT_RESULTS = "checkout.results";

    /** Command records the worker cannot apply (unreadable, invalid, inconsistent with their order). */
    public static final String CHECKOUT_COMMANDS_DLT = "checkout.commands.dlt";

    /**
     * Checkouts of carts (orders of several products), keyed by order id: the partition's consumer coordinates each
     * cart's reservation saga, so one place owns an order's saga state.
     */
    public static final String CHECKOUT_CARTS = "checkout.carts";

    /** Reserve and release commands of cart lines, keyed by product id like {@link #CHECKOUT_COMMANDS}. */
    public static final String CHECKOUT_RESERVATIONS = "checkout.reservations";

    /** What each reservation or release did, keyed by order id, back to the cart's coordinator. */
    public static final String CHECKOUT_RESERVATION_REPLIES = "checkout.reservation-replies";

    /** Cart checkout records the coordinator cannot apply. */
    public static final String CHECKOUT_CARTS_DLT = "checkout.carts.dlt";

    /** Reservation command records the worker cannot apply. */
    public static final String CHECKOUT_RESERVATIONS_DLT = "checkout.reservations.dlt";

    /** Reservation reply records the coordinator cannot read. */
    public static final String CHECKOUT_RESERVATION_REPLIES_DLT = "checkout.reservation-replies.dlt";

    private Topics() {}
}
