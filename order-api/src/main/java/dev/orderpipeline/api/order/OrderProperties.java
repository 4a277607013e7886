package dev.orderpipeline.api.order;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How orders are placed.
 *
 * @param maxLines the most lines a request may list (before duplicate products are merged): a cart's checkout locks
 *     or reserves one product per line, so its size bounds the work one checkout can ask for
 */
@ConfigurationProperties("orderpipeline.orders")
record OrderProperties(@DefaultValue("20") int maxLines) {

    OrderProperties {
        if (maxLines < 1) {
            throw new IllegalArgumentException("orderpipeline.orders.max-lines must be positive, was " + maxLines);
        }
    }
}
