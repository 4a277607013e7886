package dev.orderpipeline.contract;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A product's stock as the worker left it after a transaction that locked it: published after the commit, keyed by
 * product id on a compacted topic, so the topic keeps each product's latest stock.
 *
 * <p>Advisory, like a result: the database is the truth. A reader may see it late, or (two transactions of the same
 * product committed by different consumers) after a newer one; whoever trusts it bounds how long.
 *
 * @param productId the product; also the record key
 * @param stock the units left once the transaction committed
 * @param publishedAt when the worker published it, after its commit
 */
public record ProductStock(UUID productId, int stock, Instant publishedAt) {

    public ProductStock {
        Objects.requireNonNull(productId, "productId");
        Objects.requireNonNull(publishedAt, "publishedAt");
        if (stock < 0) {
            throw new IllegalArgumentException("stock must not be negative: " + stock);
        }
    }

    /** The record key. */
    public String key() {
        return productId.toString();
    }
}
