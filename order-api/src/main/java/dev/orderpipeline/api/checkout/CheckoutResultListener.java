package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.annotation.TopicPartition;
import org.springframework.stereotype.Component;

/**
 * Hands the worker's results to the requests waiting for them. It only completes in-memory waiters; the waiting
 * request then reads the order from the database, which stays the truth.
 */
@Component
final class CheckoutResultListener {

    static final String LISTENER_ID = "checkout-results";

    private static final Logger log = LoggerFactory.getLogger(CheckoutResultListener.class);

    private final CheckoutWaiters waiters;

    CheckoutResultListener(CheckoutWaiters waiters) {
        this.waiters = waiters;
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
    void onResult(CheckoutResult result) {
        log.debug("Checkout result {} for order {}", result.outcome(), result.orderId());
        waiters.complete(result);
    }
}
