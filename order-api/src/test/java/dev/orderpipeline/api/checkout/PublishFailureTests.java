package dev.orderpipeline.api.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.KafkaProducerException;

/**
 * The failures as spring-kafka hands them over: {@code send()} throws its own {@code KafkaException} around what the
 * producer reported at once, and the acknowledgement's future fails with a {@link KafkaProducerException} around what
 * the producer reported later.
 */
class PublishFailureTests {

    private static final ProducerRecord<Object, Object> RECORD = new ProducerRecord<>("checkout.commands", "k", "v");

    @Test
    void theMetadataWaitRunningOutIsNothingSent() {
        var thrown = new org.springframework.kafka.KafkaException(
                "Send failed", new TimeoutException("Topic checkout.commands not present in metadata after 3000 ms."));

        assertThat(PublishFailure.ofSend(thrown)).isEqualTo(PublishFailure.NOT_SENT);
    }

    @Test
    void noAcknowledgementInTimeIsAnUnknownOutcome() {
        var expired = new TimeoutException("Expiring 45 record(s) for checkout.commands-3:10001 ms has passed");

        assertThat(PublishFailure.ofAcknowledgement(acknowledgement(expired)))
                .isEqualTo(PublishFailure.OUTCOME_UNKNOWN);
        assertThat(PublishFailure.ofAcknowledgement(acknowledgement(new NotEnoughReplicasException("2 of 3"))))
                .isEqualTo(PublishFailure.OUTCOME_UNKNOWN);
    }

    /** What a broker killed on a three-broker cluster produced: non-retriable in Kafka's sense, not a bug. */
    @Test
    void aSequenceGapAtTheDeliveryTimeoutAndTheForcedCloseAfterItAreUnknownOutcomes() {
        var gap = new OutOfOrderSequenceException("The broker received an out of order sequence number.");
        var forcedClose = new KafkaException("Producer is closed forcefully.");

        assertThat(PublishFailure.ofAcknowledgement(acknowledgement(gap))).isEqualTo(PublishFailure.OUTCOME_UNKNOWN);
        assertThat(PublishFailure.ofAcknowledgement(acknowledgement(forcedClose)))
                .isEqualTo(PublishFailure.OUTCOME_UNKNOWN);
        // spring-kafka reports a future that failed before send() returned by throwing: it may have been on the wire
        assertThat(PublishFailure.ofSend(new org.springframework.kafka.KafkaException("Send failed", forcedClose)))
                .isEqualTo(PublishFailure.OUTCOME_UNKNOWN);
    }

    @Test
    void aRecordOrClientTheBrokerWillNeverAcceptIsRefusedWhereverItFails() {
        var tooLarge = new RecordTooLargeException("The message is 2000000 bytes when serialized");
        var forbidden = new TopicAuthorizationException("Not authorized to access topics: [checkout.commands]");
        var unserializable = new SerializationException("Can't serialize data");

        assertThat(PublishFailure.ofSend(new org.springframework.kafka.KafkaException("Send failed", tooLarge)))
                .isEqualTo(PublishFailure.REFUSED);
        assertThat(PublishFailure.ofSend(unserializable)).isEqualTo(PublishFailure.REFUSED);
        assertThat(PublishFailure.ofAcknowledgement(acknowledgement(forbidden))).isEqualTo(PublishFailure.REFUSED);
    }

    @Test
    void aFailureThatIsNotKafkasIsABug() {
        var bug = new IllegalArgumentException("no such thing");

        assertThat(PublishFailure.ofSend(bug)).isEqualTo(PublishFailure.REFUSED);
        assertThat(PublishFailure.ofAcknowledgement(new ExecutionException(bug)))
                .isEqualTo(PublishFailure.REFUSED);
    }

    private static KafkaProducerException acknowledgement(Exception cause) {
        return new KafkaProducerException(RECORD, "Failed to send", cause);
    }
}
