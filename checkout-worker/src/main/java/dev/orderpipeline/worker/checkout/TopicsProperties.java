package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.Topics;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Sizes of the pipeline's topics, defaulting to the contract's; order-api declares the same topics from the same
 * properties, so whichever app starts first creates them alike.
 *
 * @param commandPartitions partitions of the commands topic and of its dead-letter topic
 * @param resultPartitions partitions of the results topic
 * @param cartPartitions partitions of the cart checkouts and reservation replies topics and of their dead-letter
 *     topics (all keyed by order id): the most cart coordinators that can share the sagas. The reservations topic
 *     is keyed by product and has {@code commandPartitions}
 * @param replicationFactor replicas of every topic
 */
@ConfigurationProperties("orderpipeline.topics")
public record TopicsProperties(
        @DefaultValue("" + Topics.CHECKOUT_COMMANDS_PARTITIONS)
        int commandPartitions,

        @DefaultValue("" + Topics.CHECKOUT_RESULTS_PARTITIONS)
        int resultPartitions,

        @DefaultValue("" + Topics.CHECKOUT_CARTS_PARTITIONS) int cartPartitions,

        @DefaultValue("" + Topics.REPLICATION_FACTOR) int replicationFactor) {

    public TopicsProperties {
        if (commandPartitions < 1 || resultPartitions < 1 || cartPartitions < 1 || replicationFactor < 1) {
            throw new IllegalArgumentException("orderpipeline.topics.* must be positive: " + commandPartitions + ", "
                    + resultPartitions + ", " + cartPartitions + ", " + replicationFactor);
        }
    }
}
