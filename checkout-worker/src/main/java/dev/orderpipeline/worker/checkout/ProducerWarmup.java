package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.Topics;
import java.util.List;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Creates the worker's producer and fetches the partitions of the topics it writes to while the listeners join their
 * group, on a virtual thread of its own. Without it the first poll after a start creates the producer and waits for
 * that metadata before its offsets are committed, which a worker restarted under its name adds to its partitions'
 * pause (about 0.5 s measured). Nothing waits for it: a broker that does not answer costs a log line here, and the
 * first send waits for the metadata within {@code max.block.ms} as it would have.
 */
@Component
class ProducerWarmup implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ProducerWarmup.class);

    /** The topics the worker produces to, but for the dead-letter topics that only a poison record needs. */
    static final List<String> TOPICS = List.of(
            Topics.CHECKOUT_RESULTS,
            Topics.PRODUCT_STOCK,
            Topics.CHECKOUT_RESERVATIONS,
            Topics.CHECKOUT_RESERVATION_REPLIES);

    private final KafkaTemplate<String, Object> template;
    private volatile boolean running;

    ProducerWarmup(KafkaTemplate<String, Object> template) {
        this.template = template;
    }

    @Override
    public void start() {
        running = true;
        Thread.ofVirtual().name("producer-warmup").start(this::warm);
    }

    private void warm() {
        long started = System.nanoTime();
        try {
            for (var topic : TOPICS) {
                template.partitionsFor(topic);
            }
            log.debug(
                    "Producer ready with the metadata of {} in {} ms",
                    TOPICS,
                    (System.nanoTime() - started) / 1_000_000);
        } catch (KafkaException ex) {
            log.info(
                    "The producer could not fetch the topics' metadata at start ({}); the first send will",
                    ex.toString());
        }
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Just before the listener containers, so the fetch overlaps their joining the group. */
    @Override
    public int getPhase() {
        return WorkerKafka.LISTENER_PHASE - 1;
    }
}
