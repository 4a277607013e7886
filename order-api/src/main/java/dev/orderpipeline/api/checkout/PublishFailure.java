package dev.orderpipeline.api.checkout;

import java.util.List;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.jspecify.annotations.Nullable;

/**
 * What a failed publish means for the order, told from the exception the producer (or spring-kafka around it) gave
 * and from where it came: thrown by {@code send()}, or from the acknowledgement's future once the producer had the
 * record.
 *
 * <p>Only a failure that is the record's or the configuration's own is a bug: the broker refused this record and will
 * refuse it again, so telling the client to retry would be a lie. Every other Kafka failure is the broker's trouble
 * of the moment, and once the producer had the record, whether it was appended is unknown. That includes failures
 * that are not retriable in Kafka's sense: when a partition's leader dies, a batch whose retry meets the new leader at
 * its delivery timeout fails with {@code OutOfOrderSequenceException}; spring-kafka then closes the shared producer
 * from the producer's own thread, which makes the close forced, and every other record still in flight fails with
 * "Producer is closed forcefully". On a three-broker cluster with a broker killed, that turned a burst of checkouts
 * into 500s; the next send gets a new producer.
 */
enum PublishFailure {

    /** Nothing reached the broker (the producer could not learn the topic's partitions in time): order unchanged. */
    NOT_SENT,

    /** The broker may have appended the record: retrying the same checkout is safe, a new order is not. */
    OUTCOME_UNKNOWN,

    /** The record or the configuration is at fault, and every retry would fail alike: a bug, answered 500. */
    REFUSED;

    /**
     * Failures that say "this record, or this client, will never be accepted": a serializer's error, a record over
     * the size limit, a topic name the broker rejects, missing credentials or rights, a broker too old.
     */
    private static final List<Class<? extends Throwable>> RECORD_OR_CONFIGURATION_AT_FAULT = List.of(
            SerializationException.class,
            RecordTooLargeException.class,
            RecordBatchTooLargeException.class,
            InvalidRecordException.class,
            InvalidTopicException.class,
            AuthorizationException.class,
            AuthenticationException.class,
            UnsupportedVersionException.class,
            ConfigException.class);

    /**
     * {@code send()} threw: the producer would not take the record, or spring-kafka found its future already failed.
     * A retriable cause here is the metadata wait ({@code max.block.ms}), before anything was sent; other Kafka
     * failures may have met the record on the wire (a producer closed under it).
     */
    static PublishFailure ofSend(Throwable failure) {
        if (refused(failure)) {
            return REFUSED;
        }
        return has(failure, RetriableException.class) ? NOT_SENT : OUTCOME_UNKNOWN;
    }

    /** The acknowledgement failed: the producer had the record, and may have delivered it. */
    static PublishFailure ofAcknowledgement(Throwable failure) {
        return refused(failure) ? REFUSED : OUTCOME_UNKNOWN;
    }

    /** Not a Kafka failure at all (a bug of ours or a library's), or one that names the record or client as cause. */
    private static boolean refused(Throwable failure) {
        return !has(failure, KafkaException.class)
                || RECORD_OR_CONFIGURATION_AT_FAULT.stream().anyMatch(type -> has(failure, type));
    }

    private static boolean has(@Nullable Throwable failure, Class<? extends Throwable> type) {
        for (var current = failure; current != null; current = current.getCause()) {
            if (type.isInstance(current)) {
                return true;
            }
            if (current.getCause() == current) {
                break;
            }
        }
        return false;
    }
}
