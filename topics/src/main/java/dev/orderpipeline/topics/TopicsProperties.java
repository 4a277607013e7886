package dev.orderpipeline.topics;

import dev.orderpipeline.contract.Topics;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Sizes and replication of the pipeline's topics, defaulting to the contract's sizes and the cluster's replication.
 * Both apps bind them, so set them alike for both.
 *
 * @param commandPartitions partitions of the checkout commands topic and of the reservations topic (both keyed by
 *     product, so that a product's reservations and single-product checkouts share a partition number) and of their
 *     dead-letter topics
 * @param resultPartitions partitions of the checkout results topic
 * @param cartPartitions partitions of the cart checkouts and reservation replies topics (both keyed by order id: the
 *     most cart coordinators that can share the sagas) and of their dead-letter topics
 * @param stockPartitions partitions of the compacted product stock topic
 * @param replicationFactor replicas of every topic the apps create; unset, the cluster's
 *     {@code default.replication.factor} applies. Topics that exist keep theirs
 * @param minInsyncReplicas {@code min.insync.replicas} of the topics that carry checkouts and their decisions
 *     (commands, carts, reservations, reservation replies, results) when the apps create them; unset, the
 *     replication factor less one (at least 1) when {@code replication-factor} is set, else the cluster's
 *     {@code min.insync.replicas}. With {@code acks=all}, a write is acknowledged once that many replicas have it
 * @param minReplicationFactor the fewest replicas each topic an app uses may have: at start, an app whose topics
 *     include one with fewer refuses to start, naming it. 1, the default, checks nothing; 3 in production, so that a
 *     deployment that forgot {@code replication-factor} on a cluster whose default is 1 does not run
 * @param checkTimeout how long the start waits for the broker to describe the app's topics for the
 *     {@code min-replication-factor} check; past it the app logs a warning and starts unchecked, as it starts with
 *     the broker down
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

        @DefaultValue("" + Topics.PRODUCT_STOCK_PARTITIONS) @Positive
        int stockPartitions,

        // a Kafka topic's replication factor is a short
        @Positive @Max(Short.MAX_VALUE) @Nullable Integer replicationFactor,

        @Positive @Nullable Integer minInsyncReplicas,

        @DefaultValue("1") @Positive int minReplicationFactor,

        // the admin client takes it as an int of milliseconds
        @DefaultValue("5s") @DurationMin(millis = 1) @DurationMax(millis = Integer.MAX_VALUE)
        Duration checkTimeout) {

    public TopicsProperties {
        // relations between two properties, which a constraint on one of them cannot express; a value out of range
        // on its own is left to its constraint, which names it
        if (replicationFactor != null
                && replicationFactor > 0
                && minInsyncReplicas != null
                && minInsyncReplicas > replicationFactor) {
            throw new IllegalArgumentException("orderpipeline.topics.min-insync-replicas (" + minInsyncReplicas
                    + ") must not exceed replication-factor (" + replicationFactor
                    + "): no write with acks=all would ever be acknowledged");
        }
        if (replicationFactor != null && replicationFactor > 0 && replicationFactor < minReplicationFactor) {
            throw new IllegalArgumentException("orderpipeline.topics.replication-factor (" + replicationFactor
                    + ") is below min-replication-factor (" + minReplicationFactor
                    + "): the topics created with it would stop the start");
        }
    }
}
