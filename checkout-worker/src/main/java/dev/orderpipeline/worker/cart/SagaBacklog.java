package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.worker.checkout.WorkerProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

/**
 * How far the saga's consumers have caught up, as the moment before which every cart's reservations have been applied
 * (or their lines decided otherwise): the timeout sweeper times out only carts whose deadline passed before it. So a
 * cart is never timed out while its reservations wait in {@code checkout.reservations}, or its checkout (which sends
 * them again when a crash lost them) waits in {@code checkout.carts}, because their consumers are down or behind: it
 * waits until they have caught up, and then completes or is refused as it would have without the outage.
 *
 * <p>Measured in rounds, one step per sweep, with the broker's offsets and the database's clock (the clock of the
 * deadlines):
 *
 * <ol>
 *   <li>note the database's {@code now()} as {@code t0}, then the end offsets of {@code checkout.carts};
 *   <li>once the carts consumer group has committed those offsets, note the end offsets of
 *       {@code checkout.reservations};
 *   <li>once the reservations consumer group has committed those, every cart whose deadline is before {@code t0} has
 *       had its reservations applied: its saga started before {@code t0} minus the timeout, so its checkout was written
 *       before step 1; the carts consumer commits a checkout only once the broker took its reservations, so they were
 *       written before step 2; and the reservations consumer commits a step only after its transaction. {@code t0}
 *       becomes the cutoff, and a new round starts.
 * </ol>
 *
 * <p>The cutoff only moves forward, and a round that cannot read the broker keeps the last one, so a broker outage
 * holds timeouts back as well. While the consumers keep up, a round takes one or two sweeps and carts time out that
 * much after their deadline (a round completes at most once a sweep, and goes as far as it can in each); while one partition of either topic is stuck, no cart times out on any instance (its
 * lines that are RESERVED stay held): the gauge {@code checkout.sagas.timeout.cutoff.age} says how far the cutoff
 * trails the clock. A group that has committed nothing on a partition is where its consumer would start, at the
 * partition's first offset.
 */
@Component
class SagaBacklog implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(SagaBacklog.class);

    private static final String NOW = "SELECT now()";

    private final KafkaAdmin kafkaAdmin;
    private final JdbcClient jdbc;
    private final Duration timeout;
    private final String cartsGroup;
    private final String reservationsGroup;

    private @Nullable Admin admin;
    private @Nullable Round round;
    private volatile @Nullable OffsetDateTime cutoff;

    SagaBacklog(KafkaAdmin kafkaAdmin, JdbcClient jdbc, WorkerProperties worker, MeterRegistry meters) {
        this.kafkaAdmin = kafkaAdmin;
        this.jdbc = jdbc;
        this.timeout = worker.sendTimeout();
        this.cartsGroup = worker.groupId() + CartKafkaConfiguration.CARTS_GROUP_SUFFIX;
        this.reservationsGroup = worker.groupId() + CartKafkaConfiguration.RESERVATIONS_GROUP_SUFFIX;
        Gauge.builder("checkout.sagas.timeout.cutoff.age", this, SagaBacklog::cutoffAgeSeconds)
                .description("How far the moment before which carts may time out trails the clock: the saga's"
                        + " consumers have read everything written before it")
                .baseUnit("seconds")
                .register(meters);
    }

    /**
     * Takes this sweep's step of the current round, and answers the cutoff: carts whose deadline is before it may time
     * out. Null until a first round has completed since this instance started.
     */
    synchronized @Nullable OffsetDateTime caughtUpAsOf() {
        try {
            step();
        } catch (RuntimeException ex) {
            log.warn("Could not read the saga consumers' progress; carts time out up to {} meanwhile", cutoff, ex);
        }
        return cutoff;
    }

    /** Advances the round as far as the consumers allow, completing at most one. */
    private void step() {
        var current = round;
        if (current == null) {
            current = new Round(databaseNow(), Stage.CARTS, endOffsets(Topics.CHECKOUT_CARTS));
            round = current;
        }
        if (current.stage() == Stage.CARTS && reached(cartsGroup, current.targets())) {
            current = new Round(current.startedAt(), Stage.RESERVATIONS, endOffsets(Topics.CHECKOUT_RESERVATIONS));
            round = current;
        }
        if (current.stage() == Stage.RESERVATIONS && reached(reservationsGroup, current.targets())) {
            cutoff = current.startedAt();
            round = null;
        }
    }

    private OffsetDateTime databaseNow() {
        return jdbc.sql(NOW).query(OffsetDateTime.class).single();
    }

    private Map<TopicPartition, Long> endOffsets(String topic) {
        var description =
                await(admin().describeTopics(List.of(topic)).allTopicNames()).get(topic);
        if (description == null) {
            throw new KafkaException("the broker did not describe " + topic);
        }
        var specs = description.partitions().stream()
                .collect(Collectors.toMap(
                        partition -> new TopicPartition(topic, partition.partition()),
                        partition -> OffsetSpec.latest()));
        return offsets(specs);
    }

    /** Whether the group's committed offsets have reached the targets on every partition. */
    private boolean reached(String group, Map<TopicPartition, Long> targets) {
        var committed = await(admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        var positions = new HashMap<TopicPartition, Long>();
        var uncommitted = new HashMap<TopicPartition, OffsetSpec>();
        for (var partition : targets.keySet()) {
            @Nullable OffsetAndMetadata offset = committed.get(partition);
            if (offset == null) {
                uncommitted.put(partition, OffsetSpec.earliest());
            } else {
                positions.put(partition, offset.offset());
            }
        }
        positions.putAll(offsets(uncommitted));
        return targets.entrySet().stream()
                .allMatch(target -> positions.getOrDefault(target.getKey(), -1L) >= target.getValue());
    }

    private Map<TopicPartition, Long> offsets(Map<TopicPartition, OffsetSpec> specs) {
        if (specs.isEmpty()) {
            return Map.of();
        }
        return await(admin().listOffsets(specs).all()).entrySet().stream()
                .collect(Collectors.toMap(
                        Map.Entry::getKey, entry -> entry.getValue().offset()));
    }

    private <T> T await(KafkaFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted while reading the saga consumers' offsets", ex);
        } catch (ExecutionException | TimeoutException ex) {
            throw new KafkaException("the broker did not answer for the saga consumers' offsets", ex);
        }
    }

    private Admin admin() {
        var current = admin;
        if (current == null) {
            var config = new HashMap<>(kafkaAdmin.getConfigurationProperties());
            config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
            config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
            current = Admin.create(config);
            admin = current;
        }
        return current;
    }

    private double cutoffAgeSeconds() {
        var current = cutoff;
        return current == null
                ? Double.NaN
                : Duration.between(current.toInstant(), Instant.now()).toMillis() / 1000.0;
    }

    @Override
    public synchronized void destroy() {
        var current = admin;
        if (current != null) {
            current.close(timeout);
            admin = null;
        }
    }

    private enum Stage {
        CARTS,
        RESERVATIONS
    }

    /**
     * A round in progress.
     *
     * @param startedAt the database's clock when it started: the cutoff once it completes
     * @param stage whose consumer group it waits for
     * @param targets the end offsets that group has to commit
     */
    private record Round(OffsetDateTime startedAt, Stage stage, Map<TopicPartition, Long> targets) {}
}
