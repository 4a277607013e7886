package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.ProductStock;
import dev.orderpipeline.contract.Topics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.stereotype.Component;

/** Reports what the worker did after the commit: results for applied commands, dead letters for the rest. */
@Component
public class CheckoutPublisher {

    private static final Logger log = LoggerFactory.getLogger(CheckoutPublisher.class);

    private final KafkaTemplate<String, Object> template;
    private final DeadLetterPublishingRecoverer deadLetters;
    private final CheckoutMetrics metrics;

    CheckoutPublisher(
            KafkaTemplate<String, Object> template,
            DeadLetterPublishingRecoverer deadLetters,
            CheckoutMetrics metrics) {
        this.template = template;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
    }

    /**
     * Publishes the results keyed by order id without waiting for the acknowledgements. Results are advisory (the
     * database is the truth and clients can read the order), so the next poll need not wait for them, and a failure
     * is logged once per batch: redelivering the batch would not bring back a lost result any better. The producer
     * keeps each partition's results in the order they were sent, and a full send buffer blocks here, which keeps a
     * slow broker from being flooded.
     */
    public void publishResults(List<CheckoutResult> results) {
        publishAdvisory(
                Topics.CHECKOUT_RESULTS,
                results.stream()
                        .map(result -> Map.<String, Object>entry(result.key(), result))
                        .toList(),
                "checkout results; the orders table holds the outcomes");
    }

    /**
     * Publishes each product's stock after a commit, keyed by product id, as {@link #publishResults} publishes
     * results: without waiting, a failure logged. A stock not published only leaves an API's knowledge older: a sold
     * out it keeps expires by itself, and the next transaction that locks the product publishes its stock again.
     */
    public void publishStock(Map<UUID, Integer> stockLeft) {
        var publishedAt = Instant.now();
        publishAdvisory(
                Topics.PRODUCT_STOCK,
                stockLeft.entrySet().stream()
                        .map(left -> new ProductStock(left.getKey(), left.getValue(), publishedAt))
                        .map(stock -> Map.<String, Object>entry(stock.key(), stock))
                        .toList(),
                "product stocks; the product table holds the stock");
    }

    private void publishAdvisory(String topic, List<Map.Entry<String, Object>> records, String what) {
        if (records.isEmpty()) {
            return;
        }
        var sends = new CompletableFuture<?>[records.size()];
        try {
            for (int i = 0; i < sends.length; i++) {
                var record = records.get(i);
                sends[i] = template.send(topic, record.getKey(), record.getValue());
            }
        } catch (RuntimeException ex) {
            log.warn("Could not publish {} {}", records.size(), what, ex);
            return;
        }
        CompletableFuture.allOf(sends).whenComplete((sent, failure) -> {
            if (failure != null) {
                log.warn("Could not publish some of {} {}", records.size(), what, failure);
            }
        });
    }

    /**
     * Sends each record to the dead-letter topic and waits for the broker to take it. A dead letter the broker can
     * never take, too large even with its headers bounded, is skipped: logged with where the record is and why it
     * was poison, and counted; redelivering the poll would only fail the same way forever.
     *
     * @return how many dead letters the broker took (the caller counts them)
     * @throws RuntimeException if a dead letter is not acknowledged for another reason (the broker is away); the
     *     batch must then be redelivered, which the database absorbs as duplicates
     */
    public int deadLetter(List<DeadLetter> letters) {
        int sent = 0;
        for (var letter : letters) {
            var record = letter.record();
            log.warn(
                    "Dead-lettering {}-{}@{}: {}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    letter.reason().getMessage());
            try {
                deadLetters.accept(record, null, letter.reason());
            } catch (RuntimeException ex) {
                if (!isTooLarge(ex)) {
                    throw ex;
                }
                log.error(
                        "Skipping the dead letter of {}-{}@{}: even with bounded headers it is larger than the broker"
                                + " takes ({} bytes of value); the record stays in its topic until retention."
                                + " Reason it was poison: {}",
                        record.topic(),
                        record.partition(),
                        record.offset(),
                        record.serializedValueSize(),
                        letter.reason().getMessage(),
                        ex);
                metrics.deadLetterSkipped();
                continue;
            }
            sent++;
        }
        return sent;
    }

    private static boolean isTooLarge(Throwable failure) {
        for (Throwable current = failure; current != null; current = current.getCause()) {
            if (current instanceof RecordTooLargeException || current instanceof RecordBatchTooLargeException) {
                return true;
            }
        }
        return false;
    }

    /**
     * A record for the dead-letter topic.
     *
     * @param record the record as consumed
     * @param reason why it cannot be applied
     */
    public record DeadLetter(ConsumerRecord<?, ?> record, PoisonCommandException reason) {

        public DeadLetter {
            Objects.requireNonNull(record, "record");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
