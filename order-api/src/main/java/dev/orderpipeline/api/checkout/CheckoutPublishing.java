package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.Topics;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Whether the producer that publishes checkouts knows the partitions of the topics it writes: until it does, a
 * checkout waits for that metadata up to {@code max.block.ms} and may be answered 503, so the instance is not ready
 * ({@link CheckoutPublishingHealthIndicator}). Once it does, it stays so: the producer keeps its metadata, and a
 * broker lost later is the overall health's {@code kafka} component, of no probe group ({@link
 * BrokerHealthIndicator} says why).
 *
 * <p>At start it asks the producer for the partitions at once (each wait bounded by {@code max.block.ms}), when the
 * application's admin reached the broker, so that an instance whose broker is up is ready when it has started. Until
 * that succeeds it tries again in the background, a second apart; when the broker was down at start, it first waits
 * for the broker to answer the {@code kafka} health check and has the admin create the declared topics, which the
 * start could not.
 */
@Component
final class CheckoutPublishing implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CheckoutPublishing.class);

    /** The topics checkouts are published to. */
    static final List<String> TOPICS = List.of(Topics.CHECKOUT_COMMANDS, Topics.CHECKOUT_CARTS);

    private static final Duration PAUSE = Duration.ofSeconds(1);

    private final KafkaTemplate<String, Object> kafka;
    private final KafkaAdmin admin;
    private final HealthIndicator broker;
    private volatile boolean ready;
    private volatile boolean running;
    private volatile boolean warned;
    private @Nullable Thread retrying;

    CheckoutPublishing(
            KafkaTemplate<String, Object> kafka,
            KafkaAdmin admin,
            @Qualifier("kafkaHealthIndicator") HealthIndicator broker) {
        this.kafka = kafka;
        this.admin = admin;
        this.broker = broker;
    }

    /** Whether the producer has fetched the metadata of every topic in {@link #TOPICS}. */
    boolean ready() {
        return ready;
    }

    @Override
    public synchronized void start() {
        running = true;
        // the admin has a cluster id when it reached the broker at start, and then created the topics
        if (admin.getClusterId() != null && fetchMetadata()) {
            return;
        }
        retrying = Thread.ofVirtual().name("checkout-publishing").start(this::retry);
    }

    private void retry() {
        var topicsCreated = admin.getClusterId() != null;
        while (running && !ready) {
            try {
                Thread.sleep(PAUSE);
                if (!topicsCreated && brokerAnswers()) {
                    topicsCreated = admin.initialize();
                }
                if (topicsCreated) {
                    fetchMetadata();
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException ex) {
                // the admin's or the health check's failure: try again, unless on the way out
                if (running) {
                    log.debug("Checkout publishing not ready yet: {}", String.valueOf(ex));
                }
            }
        }
    }

    private boolean brokerAnswers() {
        var health = broker.health();
        return health != null && Status.UP.equals(health.getStatus());
    }

    /** Asks the producer for each topic's partitions; true once it knows all of them. */
    private boolean fetchMetadata() {
        try {
            for (var topic : TOPICS) {
                kafka.partitionsFor(topic);
            }
        } catch (RuntimeException ex) {
            // once, not at every attempt while the broker is away
            if (!warned) {
                warned = true;
                log.warn("Not ready to publish checkouts: no metadata of {} yet ({})", TOPICS, String.valueOf(ex));
            } else {
                log.debug("Not ready to publish checkouts yet: {}", String.valueOf(ex));
            }
            return false;
        }
        ready = true;
        log.info("Ready to publish checkouts: the producer knows the partitions of {}", TOPICS);
        return true;
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (retrying != null) {
            retrying.interrupt();
            retrying = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Early: the metadata is fetched before the web server takes requests. */
    @Override
    public int getPhase() {
        return 0;
    }
}
