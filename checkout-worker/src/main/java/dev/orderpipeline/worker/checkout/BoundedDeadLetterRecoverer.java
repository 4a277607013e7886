package dev.orderpipeline.worker.checkout;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.support.KafkaUtils;
import org.springframework.kafka.support.SendResult;

/**
 * A dead-letter recoverer whose records fit: every header value, the record's own copied ones and the exception
 * headers spring-kafka adds alike, is cut to {@value #MAX_HEADER_BYTES} bytes with a marker saying how long it was.
 *
 * <p>Without the bound a dead letter repeats what made its record poison: a 400 KB command id header came back as
 * the copied header, in the reason, in the exception message and again in the stack trace's first line, and the
 * copy was over the broker's 1 MB limit although the record was not. A dead letter that could never be sent would
 * have its poll redelivered forever. The value itself is not cut (it is the evidence); when even a bounded copy does
 * not fit, the listener skips the dead letter and counts it ({@link CheckoutPublisher#deadLetter}).
 */
class BoundedDeadLetterRecoverer extends DeadLetterPublishingRecoverer {

    /** The most a header value of a dead letter takes: a stack trace's first frames, any real id or reason. */
    static final int MAX_HEADER_BYTES = 4096;

    BoundedDeadLetterRecoverer(
            KafkaOperations<?, ?> template,
            BiFunction<ConsumerRecord<?, ?>, Exception, @Nullable TopicPartition> destinationResolver) {
        super(template, destinationResolver);
    }

    @Override
    protected ProducerRecord<Object, Object> createProducerRecord(
            ConsumerRecord<?, ?> record,
            TopicPartition topicPartition,
            Headers headers,
            byte @Nullable [] key,
            byte @Nullable [] value) {
        var bounded = new RecordHeaders();
        for (var header : headers) {
            bounded.add(header.key(), header.value() == null ? null : bounded(header.value(), MAX_HEADER_BYTES));
        }
        return super.createProducerRecord(record, topicPartition, bounded, key, value);
    }

    /**
     * Sends as the superclass does, but keeps the failure when the template throws at once: it does so for a record
     * the producer refuses before sending it (larger than {@code max.request.size}), and the superclass would log
     * that and throw without the cause, which is what tells a dead letter that can never be sent from a broker that
     * is away.
     */
    @Override
    protected void publish(
            ProducerRecord<Object, Object> outRecord,
            KafkaOperations<Object, Object> template,
            ConsumerRecord<?, ?> inRecord) {
        CompletableFuture<SendResult<Object, Object>> sent;
        try {
            sent = template.send(outRecord);
        } catch (RuntimeException ex) {
            throw new KafkaException(
                    "Dead-letter publication to " + outRecord.topic() + " failed for " + KafkaUtils.format(inRecord),
                    ex);
        }
        verifySendResult(template, outRecord, sent, inRecord);
    }

    /**
     * The value as it is if it has at most {@code maxBytes} bytes; else its beginning, cut where a UTF-8 character
     * starts, and a marker with the original length, {@code maxBytes} bytes in all.
     */
    static byte[] bounded(byte[] value, int maxBytes) {
        if (value.length <= maxBytes) {
            return value;
        }
        var marker = ("... [truncated, " + value.length + " bytes]").getBytes(StandardCharsets.US_ASCII);
        var keep = Math.max(0, maxBytes - marker.length);
        // a UTF-8 continuation byte is 10xxxxxx: step back to the start of the character it belongs to
        while (keep > 0 && (value[keep] & 0xC0) == 0x80) {
            keep--;
        }
        var cut = Arrays.copyOf(value, keep + marker.length);
        System.arraycopy(marker, 0, cut, keep, marker.length);
        return cut;
    }
}
