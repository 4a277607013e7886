package dev.orderpipeline.worker.checkout;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.errors.UnreleasedInstanceIdException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.util.backoff.BackOff;

/**
 * The worker's one error handler: {@link DefaultErrorHandler}'s redelivery of a failed batch, and a way back into the
 * group for a static member that the consumer group protocol (KIP-848, {@code group.protocol=consumer}) turned away.
 *
 * <p>Under that protocol the broker gives a {@code group.instance.id} to a new member only once the previous holder
 * has left with the static member's leave epoch (-2), which a clean close sends and a kill -9 does not: until the
 * broker expires the killed member's session ({@code group.consumer.session.timeout.ms}), a worker restarted under its
 * name is answered {@code UNRELEASED_INSTANCE_ID}, and the Kafka client (4.1) takes that as fatal: its consumer never
 * joins again, though the worker looks healthy. Here the listener's container is stopped and, a moment later, started
 * again with a new consumer, which asks again, until the broker has expired the old member and takes the new one. The
 * classic protocol never answers that: a known instance id rejoining replaces its old member at once.
 */
final class RejoiningErrorHandler extends DefaultErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(RejoiningErrorHandler.class);

    /**
     * A second between attempts: what it waits for is the old member's session (15 s on the local broker, 45 s by
     * default), and each attempt is one heartbeat of a new consumer.
     */
    static final Duration REJOIN_PAUSE = Duration.ofSeconds(1);

    private final AtomicInteger refusals = new AtomicInteger();

    RejoiningErrorHandler(BackOff redeliveryBackOff) {
        super(redeliveryBackOff);
    }

    /** How many times the broker has turned a container's consumer away since the start. */
    int refusals() {
        return refusals.get();
    }

    @Override
    public void handleOtherException(
            Exception thrownException,
            Consumer<?, ?> consumer,
            MessageListenerContainer container,
            boolean batchListener) {
        if (!(thrownException instanceof UnreleasedInstanceIdException)) {
            super.handleOtherException(thrownException, consumer, container, batchListener);
            return;
        }
        refusals.incrementAndGet();
        log.warn(
                "{}: the broker still holds this instance's group.instance.id for its previous member (killed without"
                        + " leaving the group) until that member's session expires; joining again in {} ms with a new"
                        + " consumer ({})",
                container.getListenerId(),
                REJOIN_PAUSE.toMillis(),
                thrownException.getMessage());
        // called on the consumer's thread: the stop ends its loop, and the start comes once it has closed the consumer
        container.stop(() -> Thread.ofVirtual()
                .name("rejoin-" + container.getListenerId())
                .start(() -> {
                    try {
                        Thread.sleep(REJOIN_PAUSE);
                        container.start();
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                        log.warn("{}: not started again, interrupted", container.getListenerId(), ex);
                    }
                }));
    }
}
