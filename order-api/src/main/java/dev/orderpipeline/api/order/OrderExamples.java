package dev.orderpipeline.api.order;

/** Examples for the API description, as the API reads and writes them. */
public final class OrderExamples {

    public static final String ID = "c7923f5c-1d3e-4b9a-9f0e-2a4c6b8d0e1f";

    static final String CREATE = """
            {"productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1}""";

    static final String CREATE_CART = """
            {"lines": [{"productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1},
                       {"productId": "0b3e5c7a-9d1f-4e2b-8c4a-6f8e0a2c4e6a", "quantity": 2}]}""";

    public static final String CREATED = """
            {"id": "c7923f5c-1d3e-4b9a-9f0e-2a4c6b8d0e1f", "userId": "alice",
             "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1,
             "lines": [{"lineNo": 1, "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1,
                        "status": "PENDING", "rejectReason": null}],
             "status": "CREATED", "rejectReason": null,
             "createdAt": "2026-11-30T14:30:47.512Z", "updatedAt": "2026-11-30T14:30:47.512Z"}""";

    public static final String COMPLETED = """
            {"id": "c7923f5c-1d3e-4b9a-9f0e-2a4c6b8d0e1f", "userId": "alice",
             "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1,
             "lines": [{"lineNo": 1, "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1,
                        "status": "SOLD", "rejectReason": null}],
             "status": "COMPLETED", "rejectReason": null,
             "createdAt": "2026-11-30T14:30:47.512Z", "updatedAt": "2026-11-30T14:30:48.301Z"}""";

    public static final String REJECTED = """
            {"id": "b156adbe-7c2d-4e8f-a1b3-c5d7e9f1a3b5", "userId": "bob",
             "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1,
             "lines": [{"lineNo": 1, "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1,
                        "status": "REFUSED", "rejectReason": "INSUFFICIENT_STOCK"}],
             "status": "REJECTED", "rejectReason": "INSUFFICIENT_STOCK",
             "createdAt": "2026-11-30T14:30:49.020Z", "updatedAt": "2026-11-30T14:30:49.377Z"}""";

    static final String CART_CREATED = """
            {"id": "d4e6f8a0-2b4c-4d6e-8f0a-1b3c5d7e9f1a", "userId": "alice", "productId": null, "quantity": null,
             "lines": [{"lineNo": 1, "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1,
                        "status": "PENDING", "rejectReason": null},
                       {"lineNo": 2, "productId": "0b3e5c7a-9d1f-4e2b-8c4a-6f8e0a2c4e6a", "quantity": 2,
                        "status": "PENDING", "rejectReason": null}],
             "status": "CREATED", "rejectReason": null,
             "createdAt": "2026-11-30T14:31:02.118Z", "updatedAt": "2026-11-30T14:31:02.118Z"}""";

    public static final String CART_COMPLETED = """
            {"id": "d4e6f8a0-2b4c-4d6e-8f0a-1b3c5d7e9f1a", "userId": "alice", "productId": null, "quantity": null,
             "lines": [{"lineNo": 1, "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1,
                        "status": "SOLD", "rejectReason": null},
                       {"lineNo": 2, "productId": "0b3e5c7a-9d1f-4e2b-8c4a-6f8e0a2c4e6a", "quantity": 2,
                        "status": "SOLD", "rejectReason": null}],
             "status": "COMPLETED", "rejectReason": null,
             "createdAt": "2026-11-30T14:31:02.118Z", "updatedAt": "2026-11-30T14:31:02.690Z"}""";

    public static final String CART_REJECTED = """
            {"id": "e5f7a9b1-3c5d-4e7f-9a1b-2c4d6e8f0a2b", "userId": "bob", "productId": null, "quantity": null,
             "lines": [{"lineNo": 1, "productId": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "quantity": 1,
                        "status": "RELEASED", "rejectReason": null},
                       {"lineNo": 2, "productId": "0b3e5c7a-9d1f-4e2b-8c4a-6f8e0a2c4e6a", "quantity": 2,
                        "status": "REFUSED", "rejectReason": "INSUFFICIENT_STOCK"}],
             "status": "REJECTED", "rejectReason": "INSUFFICIENT_STOCK",
             "createdAt": "2026-11-30T14:31:05.240Z", "updatedAt": "2026-11-30T14:31:05.802Z"}""";

    private OrderExamples() {}
}
