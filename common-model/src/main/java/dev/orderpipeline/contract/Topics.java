package dev.orderpipeline.contract;

/**
 * The pipeline's topics: each name, and beside it the partition count the apps create it with unless configured
 * otherwise ({@code orderpipeline.topics.*}). A new topic goes here, as a name and, if the apps create it, its
 * default partition count.
 */
public final class Topics {

    /** Checkout commands, keyed by product id so that one partition consumer owns each product's commands. */
    public static final String CHECKOUT_COMMANDS = "checkout.commands";

    /**
     * Default partitions of {@value #CHECKOUT_COMMANDS} and of its dead-letter topic: the most products checked out
     * in parallel, and the most worker threads that can share the work.
     */
    public static final int CHECKOUT_COMMANDS_PARTITIONS = 6;

    /** Outcomes decided by the worker, keyed by order id; every order-api instance listens to all of them. */
    public static final String CHECKOUT_RESULTS = "checkout.results";

    /** Default partitions of {@value #CHECKOUT_RESULTS}. */
    public static final int CHECKOUT_RESULTS_PARTITIONS = 3;

    /**
     * Command records the worker cannot apply (unreadable, invalid, inconsistent with their order); as many
     * partitions as {@value #CHECKOUT_COMMANDS}, so that a dead letter keeps its partition number.
     */
    public static final String CHECKOUT_COMMANDS_DLT = "checkout.commands.dlt";

    /**
     * Checkouts of carts (orders of several products), keyed by order id: the partition's consumer coordinates each
     * cart's reservation saga, so one place owns an order's saga state.
     */
    public static final String CHECKOUT_CARTS = "checkout.carts";

    /**
     * Default partitions of {@value #CHECKOUT_CARTS}, of {@value #CHECKOUT_RESERVATION_REPLIES} (keyed by order id
     * too) and of their dead-letter topics: the most carts whose sagas are coordinated in parallel. The reservations
     * topic, keyed by product, has as many partitions as {@value #CHECKOUT_COMMANDS}.
     */
    public static final int CHECKOUT_CARTS_PARTITIONS = 6;

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

    /**
     * Each product's stock after the last worker transaction that locked it, keyed by product id and compacted: every
     * order-api instance reads it whole to answer a checkout of a sold-out product at the door.
     */
    public static final String PRODUCT_STOCK = "product.stock";

    /** Default partitions of {@value #PRODUCT_STOCK}. */
    public static final int PRODUCT_STOCK_PARTITIONS = 3;

    private Topics() {}
}
