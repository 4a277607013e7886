package dev.orderpipeline.api.checkout;

/** Examples for the API description, as the API writes them. */
final class CheckoutExamples {

    static final String ACCEPTED = """
            {"orderId": "c7923f5c-1d3e-4b9a-9f0e-2a4c6b8d0e1f", "commandId": "c4a36a7d-2b1e-5f3a-9c8d-7e6f5a4b3c2d",
             "status": "CREATED"}""";

    private CheckoutExamples() {}
}
