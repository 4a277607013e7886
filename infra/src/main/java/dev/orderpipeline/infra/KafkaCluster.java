package dev.orderpipeline.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka brokers of a local stack, started from the jars: one broker (its own quorum, data in the work directory
 * itself), or several, each a process of its own with its own ports and data in {@code broker-<n>} below the work
 * directory, all of them combined broker and controller, voters of one KRaft quorum with one cluster id. Internal
 * topics and new topics get {@link #replicationFactor()} replicas, in sync on all but one.
 */
public final class KafkaCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaCluster.class);

    private final List<KafkaBroker> brokers;

    private KafkaCluster(List<KafkaBroker> brokers) {
        this.brokers = List.copyOf(brokers);
    }

    /**
     * Describes a cluster of {@code ports.size()} brokers without starting it: broker {@code n} (from 1) serves clients
     * on {@code ports[n - 1]} and votes on {@code controllerPorts[n - 1]}.
     */
    public static KafkaCluster create(Path workDirectory, List<Integer> ports, List<Integer> controllerPorts) {
        if (ports.isEmpty() || ports.size() != controllerPorts.size()) {
            throw new IllegalArgumentException(
                    "each broker needs a client and a controller port: " + ports + ", " + controllerPorts);
        }
        if (ports.size() == 1) {
            return new KafkaCluster(List.of(KafkaBroker.create(
                    KafkaBroker.Settings.of(workDirectory, ports.getFirst(), controllerPorts.getFirst()))));
        }
        var clusterId = existingClusterId(workDirectory, ports.size());
        var brokers = new ArrayList<KafkaBroker>();
        for (var index = 0; index < ports.size(); index++) {
            var membership = new KafkaBroker.Membership(clusterId, index + 1, controllerPorts);
            brokers.add(KafkaBroker.create(KafkaBroker.Settings.of(
                            nodeDirectory(workDirectory, index + 1), ports.get(index), controllerPorts.get(index))
                    .withMembership(membership)));
        }
        return new KafkaCluster(brokers);
    }

    /**
     * Launches every broker, then waits for each: a voter answers only once a majority of the quorum runs. Kills them
     * all when one does not become ready.
     */
    public KafkaCluster start() {
        var startedAt = System.nanoTime();
        try {
            // formatting and launching are a JVM start each: side by side, they overlap
            try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
                var launching = brokers.stream()
                        .map(broker -> CompletableFuture.runAsync(broker::launch, executor))
                        .toList();
                CompletableFuture.allOf(launching.toArray(CompletableFuture[]::new))
                        .join();
            } catch (CompletionException ex) {
                throw ex.getCause() instanceof RuntimeException cause ? cause : ex;
            }
            brokers.forEach(broker -> broker.awaitReady(startedAt));
        } catch (RuntimeException ex) {
            brokers.forEach(KafkaBroker::kill);
            throw ex;
        }
        if (brokers.size() > 1) {
            log.info(
                    "Kafka cluster of {} brokers ready at {} (replication factor {})",
                    brokers.size(),
                    bootstrapServers(),
                    replicationFactor());
        }
        return this;
    }

    public List<KafkaBroker> brokers() {
        return brokers;
    }

    /** Every broker's address, comma-separated. */
    public String bootstrapServers() {
        return brokers.stream().map(KafkaBroker::bootstrapServers).collect(Collectors.joining(","));
    }

    /** Replicas of the topics: the number of brokers, at most 3. */
    public int replicationFactor() {
        return brokers.getFirst().settings().replicationFactor();
    }

    /**
     * Controlled shutdown of every broker, all at once: each is also a voter of the controller quorum, and one stopped
     * after the others had gone would find no quorum to hand its partitions to and wait out its whole grace period.
     */
    public void stop() {
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var broker : brokers) {
                log.info("Stopping the Kafka broker (pid {})", broker.isRunning() ? broker.pid() : "-");
                executor.execute(broker::stop);
            }
        }
    }

    /** The brokers' processes in a few words: the pid and log of one broker, the pids and replication of several. */
    public String describe() {
        if (brokers.size() == 1) {
            var broker = brokers.getFirst();
            return "pid " + broker.pid() + ", log " + broker.serverLog();
        }
        return brokers.size() + " brokers, replication factor " + replicationFactor() + ", pids "
                + brokers.stream().map(broker -> Long.toString(broker.pid())).collect(Collectors.joining(" "));
    }

    @Override
    public void close() {
        stop();
    }

    /** The broker numbered {@code node} (from 1) keeps its data here. */
    static Path nodeDirectory(Path workDirectory, int node) {
        return workDirectory.resolve("broker-" + node);
    }

    /** The id the nodes were formatted with on an earlier start, so that they keep it; a new one otherwise. */
    private static String existingClusterId(Path workDirectory, int nodes) {
        for (var node = 1; node <= nodes; node++) {
            var id = clusterIdIn(nodeDirectory(workDirectory, node).resolve("data/meta.properties"));
            if (id != null) {
                return id;
            }
        }
        return Uuid.randomUuid().toString();
    }

    private static @Nullable String clusterIdIn(Path metaProperties) {
        if (!Files.isRegularFile(metaProperties)) {
            return null;
        }
        var properties = new Properties();
        try (InputStream in = Files.newInputStream(metaProperties)) {
            properties.load(in);
        } catch (IOException ex) {
            throw new UncheckedIOException("could not read " + metaProperties, ex);
        }
        return properties.getProperty("cluster.id");
    }
}
