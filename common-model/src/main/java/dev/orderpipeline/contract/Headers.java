package dev.orderpipeline.contract;

/** Kafka header names that travel beside the JSON value, so tools can read them without parsing it. */
public final class Headers {

    /** The command id as UTF-8 text: the same value as {@link CheckoutCommand#commandId()}. */
    public static final String COMMAND_ID = "command-id";

    /** The kind of command as UTF-8 text, e.g. {@value CheckoutCommand#TYPE}. */
    public static final String COMMAND_TYPE = "command-type";

    /** The order a record belongs to, as UTF-8 text: names the saga a reservation or reply is a step of. */
    public static final String ORDER_ID = "order-id";

    private Headers() {}
}
