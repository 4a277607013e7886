package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.log.LogAccessor;
import org.springframework.kafka.support.KafkaUtils;
import org.springframework.kafka.support.serializer.SerializationUtils;
import tools.jackson.core.JacksonException;

/**
 * Why a record cannot be applied, as handed to the dead-letter recoverer: its message becomes the reason header and,
 * with its cause, spring-kafka's exception headers.
 */
public final class PoisonCommandException extends RuntimeException {

    private static final LogAccessor LOG = new LogAccessor(PoisonCommandException.class);

    private static final int MAX_DESCRIPTION_LENGTH = 300;

    /** Room for any reason the worker gives; what the record carried (a huge header, say) is cut to it. */
    private static final int MAX_REASON_LENGTH = 1000;

    public PoisonCommandException(String reason, @Nullable Throwable cause) {
        super(shortened(reason, MAX_REASON_LENGTH), cause);
    }

    /** A failure in one short line, for a reason header: the first line of its message. */
    public static String describe(Throwable failure) {
        var message = Objects.requireNonNullElse(
                failure.getMessage(), failure.getClass().getName());
        var firstLine = message.lines().findFirst().orElse(message);
        return shortened(firstLine, MAX_DESCRIPTION_LENGTH);
    }

    /**
     * Why a record whose value did not deserialize cannot be applied: the JSON's own failure, or which check of the
     * record's constructor failed. Every listener of the worker reads its records with an error-handling
     * deserializer, so such a record arrives with a null value and the failure in a header.
     */
    public static PoisonCommandException unreadable(ConsumerRecord<?, ?> record) {
        var failure =
                SerializationUtils.getExceptionFromHeader(record, KafkaUtils.VALUE_DESERIALIZER_EXCEPTION_HEADER, LOG);
        if (failure == null) {
            return new PoisonCommandException("no command: the record has no value", null);
        }
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
        for (Throwable current = failure; current != null; current = current.getCause()) {
            if (current instanceof JacksonException) {
                cause = current;
                break;
            }
        }
        return new PoisonCommandException("unreadable command: " + describe(cause), failure);
    }

    /** The command id header, if there is one, must name the command it travels with; null when it does. */
    public static @Nullable PoisonCommandException mismatchedHeader(ConsumerRecord<?, ?> record, UUID commandId) {
        var header = record.headers().lastHeader(Headers.COMMAND_ID);
        if (header == null || header.value() == null) {
            return null;
        }
        var headerValue = new String(header.value(), StandardCharsets.UTF_8);
        if (headerValue.equals(commandId.toString())) {
            return null;
        }
        return new PoisonCommandException(
                "header " + Headers.COMMAND_ID + " " + headerValue + " is not the command's id " + commandId, null);
    }

    private static String shortened(String text, int maxLength) {
        return text.length() <= maxLength ? text : text.substring(0, maxLength) + "...";
    }
}
