package dev.orderpipeline.api.order;

/** Examples for the API description, as the API reads and writes them. */
public final class OrderExamples {

    public static final String ID = "c7923f5c-1d3e-4b9a-9f0e-2a4c6b8d0e1f";

    static final String CREATE = """
            {"productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1}""";

    public static final String CREATED = """
            {"id": "c7923f5c-1d3e-4b9a-9f0e-2a4c6b8d0e1f", "userId": "alice",
             "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1, "status": "CREATED",
             "rejectReason": null, "createdAt": "2026-11-30T14:30:47.512Z", "updatedAt": "2026-11-30T14:30:47.512Z"}""";

    public static final String COMPLETED = """
            {"id": "c7923f5c-1d3e-4b9a-9f0e-2a4c6b8d0e1f", "userId": "alice",
             "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1, "status": "COMPLETED",
             "rejectReason": null, "createdAt": "2026-11-30T14:30:47.512Z", "updatedAt": "2026-11-30T14:30:48.301Z"}""";

    public static final String REJECTED = """
            {"id": "b156adbe-7c2d-4e8f-a1b3-c5d7e9f1a3b5", "userId": "bob",
             "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1, "status": "REJECTED",
             "rejectReason": "INSUFFICIENT_STOCK", "createdAt": "2026-11-30T14:30:49.020Z",
             "updatedAt": "2026-11-30T14:30:49.377Z"}""";

    private OrderExamples() {}
}
