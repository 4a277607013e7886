package dev.orderpipeline.contract;

/** The final status a checkout gives an order. */
public enum CheckoutOutcome {
    COMPLETED,
    REJECTED
}
