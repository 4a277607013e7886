package dev.orderpipeline.contract;

/** Topic names. Partition counts and replication are configuration, not part of the contract. */
public final class Topics {

    /** Checkout commands, keyed by product id so that one partition consumer owns each product's commands. */
    public static final String CHECKOUT_COMMANDS = "checkout.commands";

    /** Outcomes decided by the worker, keyed by order id; every order-api instance listens to all of them. */
    public static final String CHECKOUT_RESULTS = "checkout.results";

    /** Command records the worker cannot apply (unreadable, invalid, inconsistent with their order). */
    public static final String CHECKOUT_COMMANDS_DLT = "checkout.commands.dlt";

    private Topics() {}
}
