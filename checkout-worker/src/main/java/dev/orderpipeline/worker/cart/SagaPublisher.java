package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.ReservationReply;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.worker.checkout.WorkerProperties;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Sends the saga's steps and replies after the commit that decided them, and waits for the broker to take them: a
 * step or reply that is not acknowledged fails the poll, which is redelivered and sends it again (the receivers
 * dedupe by command id). Unlike results, the saga's progress depends on them.
 */
@Component
class SagaPublisher {

    private final KafkaTemplate<String, Object> template;
    private final WorkerProperties worker;

    SagaPublisher(KafkaTemplate<String, Object> template, WorkerProperties worker) {
        this.template = template;
        this.worker = worker;
    }

    /** Sends reservation steps to {@code checkout.reservations}, keyed by product id. */
    void sendSteps(List<ReservationCommand> steps) {
        var sends = new ArrayList<CompletableFuture<?>>(steps.size());
        for (var step : steps) {
            var record = record(
                    Topics.CHECKOUT_RESERVATIONS,
                    step.key(),
                    step,
                    step.commandId(),
                    step.action().type(),
                    step.orderId());
            sends.add(template.send(record));
        }
        await(sends, "reservation steps");
    }

    /** Sends replies to {@code checkout.reservation-replies}, keyed by order id. */
    void sendReplies(List<ReservationReply> replies) {
        var sends = new ArrayList<CompletableFuture<?>>(replies.size());
        for (var reply : replies) {
            var record = record(
                    Topics.CHECKOUT_RESERVATION_REPLIES,
                    reply.key(),
                    reply,
                    reply.commandId(),
                    ReservationReply.TYPE,
                    reply.orderId());
            sends.add(template.send(record));
        }
        await(sends, "reservation replies");
    }

    private static ProducerRecord<String, Object> record(
            String topic, String key, Object value, UUID commandId, String type, UUID orderId) {
        var record = new ProducerRecord<String, Object>(topic, key, value);
        record.headers().add(Headers.COMMAND_ID, bytes(commandId.toString()));
        record.headers().add(Headers.COMMAND_TYPE, bytes(type));
        record.headers().add(Headers.ORDER_ID, bytes(orderId.toString()));
        return record;
    }

    private void await(List<CompletableFuture<?>> sends, String what) {
        if (sends.isEmpty()) {
            return;
        }
        try {
            CompletableFuture.allOf(sends.toArray(CompletableFuture<?>[]::new))
                    .get(worker.sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted while sending " + sends.size() + " " + what, ex);
        } catch (ExecutionException | TimeoutException ex) {
            throw new KafkaException("the broker did not take " + sends.size() + " " + what, ex);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
