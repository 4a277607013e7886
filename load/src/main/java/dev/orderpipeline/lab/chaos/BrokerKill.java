package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.KafkaBroker;
import dev.orderpipeline.infra.KafkaCluster;
import dev.orderpipeline.lab.chaos.ChaosRun.Takeover;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import dev.orderpipeline.lab.chaos.TopicReader.PartitionState;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * kill -9 of the broker leading the most command partitions (--brokers 3), down for {@code brokerDown}, then started
 * again: it must rejoin every ISR.
 */
final class BrokerKill {

    private BrokerKill() {}

    static Done killTheBusiestLeader(FaultRun run, int number, double start) {
        var cluster = run.stack()
                .cluster()
                .filter(brokers -> brokers.brokers().size() > 1)
                .orElseThrow(() -> new IllegalStateException(
                        "broker-kill needs a cluster of brokers that the lab starts (--brokers 3)"));
        var led = run.topics().partitions().stream()
                .filter(partition -> partition.topic().equals(Topics.CHECKOUT_COMMANDS) && partition.leader() > 0)
                .collect(Collectors.groupingBy(
                        PartitionState::leader,
                        TreeMap::new,
                        Collectors.mapping(PartitionState::partition, Collectors.toList())));
        var node = led.entrySet().stream()
                .max(Comparator.comparingInt((Map.Entry<Integer, List<Integer>> entry) ->
                                entry.getValue().size())
                        .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .map(Map.Entry::getKey)
                .orElseThrow(() -> new IllegalStateException("no command partition has a leader"));
        var victim = broker(cluster, node);
        var pid = victim.pid();
        var killedAtMillis = System.currentTimeMillis();
        var killed = run.clock().now();
        victim.kill();
        FaultRun.pause(run.settings().brokerDown());
        var restarting = run.clock().now();
        victim.start();
        var restartedAtMillis = System.currentTimeMillis();
        var ready = run.clock().now() - restarting;
        var rejoined = awaitInSync(run, node, restarting);
        var held = Objects.requireNonNull(led.get(node));
        var stalls = PartitionStalls.measure(run, held, killedAtMillis, restartedAtMillis);
        var takeover = new Takeover(
                "broker " + node + " (leader of command partitions " + held + ")", stalls, rejoined, null, null, null);
        var detail = String.format(
                Locale.ROOT,
                "SIGKILL to broker %d of %d (pid %d), leader of %d of %d command partitions %s; down %.1f s, started"
                        + " again on its data (ready in %.1f s)",
                node,
                cluster.brokers().size(),
                pid,
                held.size(),
                led.values().stream().mapToInt(List::size).sum(),
                held,
                restarting - killed,
                ready);
        return new Done(run.clock().now(), detail, null, takeover);
    }

    private static KafkaBroker broker(KafkaCluster cluster, int node) {
        return cluster.brokers().stream()
                .filter(broker -> broker.settings().membership() != null
                        && Objects.requireNonNull(broker.settings().membership())
                                        .nodeId()
                                == node)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no broker of the cluster has node id " + node));
    }

    /**
     * Seconds from {@code since} until {@code node} is in every ISR of its partitions again; null if not within the
     * limit.
     */
    private static @Nullable Double awaitInSync(FaultRun run, int node, double since) {
        var deadline = System.nanoTime() + run.settings().catchUpLimit().toNanos();
        while (System.nanoTime() - deadline < 0) {
            try {
                if (run.topics().partitions().stream()
                        .filter(partition -> partition.replicas().contains(node))
                        .allMatch(partition -> partition.isr().contains(node))) {
                    return ChaosJudge.round(run.clock().now() - since);
                }
            } catch (IllegalStateException ex) {
                // the cluster is still electing: asked again
            }
            FaultRun.pause(FaultRun.POLL);
        }
        return null;
    }
}
