package dev.orderpipeline.checkoutlab;

/** Examples for the API description, as the API writes them. */
final class LabExamples {

    static final String PRODUCT_ID = "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f";

    static final String HOLDS = """
            {"productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "initialStock": 100, "stockLeft": 0,
             "completedOrders": 100, "completedQuantity": 100, "rejectedOrders": 200,
             "rejectionsByReason": {"INSUFFICIENT_STOCK": 200}, "ordersNotFinal": 0, "payments": 100,
             "ordersPaidMoreThanOnce": 0, "paymentsWithoutCompletion": 0, "oversold": false, "drift": 0,
             "doublePayments": 0, "holds": true, "violations": []}""";

    static final String OVERSOLD = """
            {"productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "initialStock": 100, "stockLeft": 0,
             "completedOrders": 131, "completedQuantity": 131, "rejectedOrders": 169,
             "rejectionsByReason": {"INSUFFICIENT_STOCK": 169}, "ordersNotFinal": 0, "payments": 131,
             "ordersPaidMoreThanOnce": 0, "paymentsWithoutCompletion": 0, "oversold": true, "drift": 31,
             "doublePayments": 0, "holds": false,
             "violations": ["oversell: 131 units sold of 100", "drift: stock 0 + sold 131 != initial 100"]}""";

    private LabExamples() {}
}
