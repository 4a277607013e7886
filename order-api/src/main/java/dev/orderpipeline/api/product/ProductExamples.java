package dev.orderpipeline.api.product;

/** Examples for the API description, as the API reads and writes them. */
final class ProductExamples {

    static final String ID = "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f";

    static final String CREATE = """
            {"name": "Hot sneakers", "stock": 1, "price": 99.90}""";

    static final String PRODUCT = """
            {"id": "66f62076-5a1b-4c2d-8e3f-9a0b1c2d3e4f", "name": "Hot sneakers", "stock": 1, "price": 99.90,
             "createdAt": "2026-11-30T14:30:41.118Z", "updatedAt": "2026-11-30T14:30:41.118Z"}""";

    static final String RESTOCK = """
            {"units": 100}""";

    private ProductExamples() {}
}
