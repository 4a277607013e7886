package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.order.KnownOrders;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.Topics;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.annotation.TopicPartition;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Hands the worker's results to the requests waiting for them, and forgets each decided order from {@link
 * KnownOrders}, whose entries are orders still to be checked out. It only completes in-memory waiters; the waiting
 * request then reads the order from the database, which stays the truth.
 *
 * <p>Every instance reads every result, while only the instance a request waits on needs it, and most checkouts wait
 * for nothing: so a record is read as a {@link CheckoutResult} only when its key, the order id, is one that a request
 * here waits for. A record that does not read as a result is logged and skipped, never retried: it would block its
 * partition, and the request it was for answers from the database when its wait ends.
 */
@Component
final class CheckoutResultListener {

    static final String LISTENER_ID = "checkout-results";

    private static final Logger log = LoggerFactory.getLogger(CheckoutResultListener.class);

    private final CheckoutWaiters waiters;
    private final JsonMapper json;
    private final KnownOrders known;

    CheckoutResultListener(CheckoutWaiters waiters, JsonMapper json, KnownOrders known) {
        this.waiters = waiters;
        this.json = json;
        this.known = known;
    }

    // every partition assigned by hand (see CheckoutKafkaConfiguration); idIsGroup = false: there is no group at all
    @KafkaListener(
            id = LISTENER_ID,
            idIsGroup = false,
            // without a group the client id is how the broker's logs and quotas tell this consumer apart
            clientIdPrefix = "order-api-results",
            topicPartitions =
                    @TopicPartition(
                            topic = Topics.CHECKOUT_RESULTS,
                            partitions = "#{@" + CheckoutKafkaConfiguration.RESULT_PARTITIONS + ".ids()}"),
            containerFactory = CheckoutKafkaConfiguration.RESULTS_CONTAINER_FACTORY)
    void onResult(ConsumerRecord<String, byte @Nullable []> record) {
        var orderId = orderId(record.key());
        if (orderId == null) {
            return;
        }
        // decided: a checkout of it again is answered from the database, with its status
        known.forget(orderId);
        if (!waiters.awaits(orderId)) {
            return;
        }
        var result = read(record);
        if (result != null) {
            log.debug("Checkout result {} for order {}", result.outcome(), result.orderId());
            waiters.complete(result);
        }
    }

    private static @Nullable UUID orderId(@Nullable String key) {
        if (key == null) {
            return null;
        }
        try {
            return UUID.fromString(key);
        } catch (IllegalArgumentException ex) {
            return null;
        }
    }

    private @Nullable CheckoutResult read(ConsumerRecord<String, byte @Nullable []> record) {
        var value = record.value();
        try {
            if (value == null) {
                throw new IllegalArgumentException("no value");
            }
            return json.readValue(value, CheckoutResult.class);
        } catch (JacksonException | IllegalArgumentException ex) {
            log.warn(
                    "Skipping record {}-{}@{}: not a checkout result",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    ex);
            return null;
        }
    }
}
