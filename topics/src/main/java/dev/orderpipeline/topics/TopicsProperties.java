package dev.orderpipeline.topics;

import dev.orderpipeline.contract.Topics;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Sizes of the pipeline's topics, defaulting to the contract's. Both apps bind them, so set them alike for both.
 *
 * @param commandPartitions partitions of the checkout commands topic and of the reservations topic (both keyed by
 *     product, so that a product's reservations and single-product checkouts share a partition number) and of their
 *     dead-letter topics
 * @param resultPartitions partitions of the checkout results topic
 * @param cartPartitions partitions of the cart checkouts and reservation replies topics (both keyed by order id: the
 *     most cart coordinators that can share the sagas) and of their dead-letter topics
 * @param replicationFactor replicas of every topic; the default suits one local broker only, so a cluster sets its
 *     own
 */
@ConfigurationProperties("orderpipeline.topics")
@Validated
public record TopicsProperties(
        @DefaultValue("" + Topics.CHECKOUT_COMMANDS_PARTITIONS) @Positive
        int commandPartitions,

        @DefaultValue("" + Topics.CHECKOUT_RESULTS_PARTITIONS) @Positive
        int resultPartitions,

        @DefaultValue("" + Topics.CHECKOUT_CARTS_PARTITIONS) @Positive
        int cartPartitions,

        @DefaultValue("" + Topics.REPLICATION_FACTOR) @Positive
        int replicationFactor) {}
