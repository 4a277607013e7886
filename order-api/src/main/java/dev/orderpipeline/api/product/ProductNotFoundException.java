package dev.orderpipeline.api.product;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.UUID;

/** A request named a product that does not exist. */
public final class ProductNotFoundException extends ProblemException {

    public ProductNotFoundException(UUID productId) {
        super(ProblemKind.PRODUCT_NOT_FOUND, "Product " + productId + " does not exist");
        property("productId", productId);
    }
}
