package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.infra.KafkaBroker;
import dev.orderpipeline.infra.KafkaCluster;
import dev.orderpipeline.lab.chaos.ChaosRun.Freeze;
import dev.orderpipeline.lab.chaos.ChaosRun.PartitionStall;
import dev.orderpipeline.lab.chaos.ChaosRun.Takeover;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import dev.orderpipeline.lab.pipeline.ApiClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.utils.Utils;
import org.jspecify.annotations.Nullable;

/**
 * The faults of the pipeline's processes. kill -9 of a checkout-worker, restarted at once: {@code worker-kill} so that
 * the group rebalances, {@code worker-kill-restart} under its name, its {@code group.instance.id}, so that the group
 * keeps its partitions. {@code worker-freeze}: a worker frozen (SIGSTOP) mid-transaction past its session, then
 * SIGCONT; the other takes over and PostgreSQL ends the idle transaction. {@code broker-kill}: kill -9 of the broker
 * leading the most command partitions (--brokers 3), down for {@code brokerDown}, then started again; it must rejoin
 * every ISR. After a broker kill or a freeze, how long each command partition of the load's products went without a
 * decision, read once every partition had one after the fault was over.
 */
final class ProcessFaults {

    private ProcessFaults() {}

    /** The live consumer group: the workers the stack starts use the worker's default group id. */
    static final String LIVE_GROUP = "checkout-worker";

    static Done killAndStart(FaultRun run, int number, double start) {
        var workers = run.mainWorkers();
        return killAndStart(run, workers.get((number - 1) % Math.min(2, workers.size())), "");
    }

    private static Done killAndStart(FaultRun run, AppProcess worker, String about) {
        var pid = worker.pid();
        var exit = worker.kill();
        var killed = run.clock().now();
        worker.start();
        worker.awaitReady(run.stack().config().startupTimeout());
        return run.done(String.format(
                Locale.ROOT,
                "SIGKILL to %s%s (pid %d, exit code %d), started again at once under its name as pid %d, ready %.1f s"
                        + " after the kill",
                worker.name(),
                about,
                pid,
                exit,
                worker.pid(),
                run.clock().now() - killed));
    }

    static Done killAndRestartUnderItsName(FaultRun run, int number, double start) {
        var workers = run.mainWorkers();
        var victim = busiest(run, workers);
        return killAndStart(
                run,
                workers.get(victim.worker()),
                String.format(
                        Locale.ROOT,
                        " (%s, partitions %s holding %d of the load's %d products)",
                        victim.staticMember() ? "a static member" : "no static member with its name in the group",
                        victim.partitions(),
                        victim.products().size(),
                        run.products().size()));
    }

    static Victim busiest(FaultRun run, List<AppProcess> workers) {
        var partitionCount = run.topics().partitions(Topics.CHECKOUT_COMMANDS).size();
        var members = run.topics().description(LIVE_GROUP).members().stream()
                .map(member -> new Member(
                        member.groupInstanceId().orElse(null),
                        member.assignment().topicPartitions().stream()
                                .filter(partition -> partition.topic().equals(Topics.CHECKOUT_COMMANDS))
                                .map(TopicPartition::partition)
                                .toList()))
                .toList();
        return choose(
                workers.stream().map(AppProcess::name).toList(),
                members,
                run.products().stream()
                        .collect(
                                Collectors.toMap(product -> product, product -> partitionOf(product, partitionCount))));
    }

    record Member(@Nullable String instanceId, List<Integer> partitions) {}

    record Victim(int worker, boolean staticMember, List<Integer> partitions, List<UUID> products) {}

    /** The worker whose partitions carry most of the products; without static members, the first, watching all. */
    static Victim choose(List<String> workers, List<Member> members, Map<UUID, Integer> partitionOf) {
        var victims = new ArrayList<Victim>();
        for (var index = 0; index < workers.size(); index++) {
            var name = workers.get(index);
            var partitions = members.stream()
                    .filter(member -> member.instanceId() != null
                            && (member.instanceId().equals(name)
                                    || member.instanceId().startsWith(name + "-")))
                    .flatMap(member -> member.partitions().stream())
                    .sorted()
                    .toList();
            var owned = partitionOf.entrySet().stream()
                    .filter(entry -> partitions.contains(entry.getValue()))
                    .map(Map.Entry::getKey)
                    .sorted()
                    .toList();
            if (!partitions.isEmpty()) {
                victims.add(new Victim(index, true, partitions, owned));
            }
        }
        return victims.stream()
                .max(Comparator.comparingInt(
                                (Victim victim) -> victim.products().size())
                        .thenComparingInt(victim -> -victim.worker()))
                .orElseGet(() -> new Victim(
                        0,
                        false,
                        List.of(),
                        partitionOf.keySet().stream().sorted().toList()));
    }

    /** The partition the producer's default partitioner sends a product's commands to (murmur2 of the key). */
    static int partitionOf(UUID product, int partitions) {
        var key = product.toString().getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(key)) % partitions;
    }

    /** Tries at catching the worker with a transaction open: 15 missed every time in one run of the suite. */
    private static final int ATTEMPTS = 40;

    /** A transaction idle this long is the frozen worker's: the apps' take milliseconds. */
    private static final Duration SEEN_STALE = Duration.ofMillis(1_300);

    private static final String POOL_TIMEOUTS = "hikaricp_connections_timeout_total";

    static Done freezeMidTransaction(FaultRun run, int number, double start) {
        var workers = run.mainWorkers();
        if (workers.size() < 2) {
            throw new IllegalStateException("worker-freeze needs a second worker to take over");
        }
        var victim = ProcessFaults.busiest(run, workers);
        var worker = workers.get(victim.worker());
        try (var http = ApiClient.newHttpClient()) {
            var api = new ApiClient(run.stack().api(), http, Duration.ofSeconds(30));
            var poolTimeoutsBefore = poolTimeouts(api);
            var attempt = 0;
            long stale = 0;
            long frozenAtMillis;
            double frozen;
            do {
                if (attempt > 0) {
                    signal(worker, "CONT");
                    // resumed, it takes up what piled up while it was frozen: stopped again at a random moment of
                    // that, each try lands on another phase of its poll
                    FaultRun.pause(Duration.ofMillis(ThreadLocalRandom.current().nextLong(20, 300)));
                }
                attempt++;
                frozenAtMillis = System.currentTimeMillis();
                frozen = run.clock().now();
                signal(worker, "STOP");
                FaultRun.pause(SEEN_STALE);
                stale = run.database().staleTransactions();
            } while (stale == 0 && attempt < ATTEMPTS);
            var freeze = whileFrozen(run, api, victim, frozen, stale, poolTimeoutsBefore);
            signal(worker, "CONT");
            var resumedAtMillis = System.currentTimeMillis();
            var resumed = run.clock().now();
            var stalls = ProcessFaults.measure(run, victim.partitions(), frozenAtMillis, resumedAtMillis);
            // resumed, it notices its connection and its partitions gone: it must still be running afterwards
            FaultRun.pause(Duration.ofSeconds(2));
            var takeover = new Takeover(stalls, null, freeze);
            var detail = String.format(
                    Locale.ROOT,
                    "SIGSTOP to %s (pid %d, partitions %s holding %d of the load's %d products) with %d sessions idle in"
                            + " a transaction (caught on try %d); frozen %.1f s, then SIGCONT; %s",
                    worker.name(),
                    worker.pid(),
                    victim.partitions(),
                    victim.products().size(),
                    run.products().size(),
                    stale,
                    attempt,
                    resumed - frozen,
                    worker.isAlive() ? "alive after it" : "it died after it");
            return new Done(
                    run.clock().now(),
                    detail,
                    worker.isAlive() ? null : worker.name() + " died after SIGCONT",
                    takeover);
        } finally {
            if (worker.isAlive()) {
                signal(worker, "CONT");
            }
        }
    }

    /** One order after the other on the victim's products, timed, and the stale sessions watched until none is left. */
    private static Freeze whileFrozen(
            FaultRun run, ApiClient api, Victim victim, double frozen, long stale, long poolTimeoutsBefore) {
        var products = victim.products().isEmpty() ? run.products() : victim.products();
        var until = frozen + run.settings().workerFreeze().toMillis() / 1000.0;
        var sent = 0;
        var failed = 0;
        var longest = 0.0;
        @Nullable Double staleEndedAfter = null;
        while (run.clock().now() < until) {
            var product = products.get(sent % products.size());
            var startedAt = System.nanoTime();
            try {
                api.createOrder("chaos-" + run.runTag() + "-frozen-" + sent, product, 1);
            } catch (IllegalStateException ex) {
                failed++;
            }
            sent++;
            longest = Math.max(longest, (System.nanoTime() - startedAt) / 1e9);
            if (staleEndedAfter == null && run.database().staleTransactions() == 0) {
                staleEndedAfter = ChaosJudge.round(run.clock().now() - frozen);
            }
            FaultRun.pause(Duration.ofMillis(100));
        }
        return new Freeze(
                stale,
                staleEndedAfter,
                sent,
                failed,
                ChaosJudge.round(longest),
                poolTimeouts(api) - poolTimeoutsBefore);
    }

    private static long poolTimeouts(ApiClient api) {
        return Math.round(api.metrics()
                .lines()
                .filter(line -> line.startsWith(POOL_TIMEOUTS))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum());
    }

    /** kill -STOP or -CONT: a stopped process keeps its sockets and answers nothing. */
    private static void signal(AppProcess worker, String signal) {
        try {
            var exit = new ProcessBuilder("kill", "-" + signal, Long.toString(worker.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            if (exit != 0) {
                throw new IllegalStateException("kill -" + signal + " " + worker.pid() + " exited with " + exit);
            }
        } catch (IOException ex) {
            throw new IllegalStateException("could not send SIG" + signal + " to " + worker.name(), ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + worker.name(), ex);
        }
    }

    static Done killTheBusiestLeader(FaultRun run, int number, double start) {
        var cluster = run.stack()
                .cluster()
                .filter(brokers -> brokers.brokers().size() > 1)
                .orElseThrow(() -> new IllegalStateException(
                        "broker-kill needs a cluster of brokers that the lab starts (--brokers 3)"));
        var led = run.topics().topics().stream()
                .filter(topic -> topic.name().equals(Topics.CHECKOUT_COMMANDS))
                .flatMap(topic -> topic.partitions().stream())
                .filter(partition ->
                        partition.leader() != null && partition.leader().id() > 0)
                .collect(Collectors.groupingBy(
                        partition -> partition.leader().id(),
                        TreeMap::new,
                        Collectors.mapping(TopicPartitionInfo::partition, Collectors.toList())));
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
        var stalls = ProcessFaults.measure(run, held, killedAtMillis, restartedAtMillis);
        var takeover = new Takeover(stalls, rejoined, null);
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
        return FaultRun.poll(
                ChaosSettings.CATCH_UP_LIMIT,
                FaultRun.POLL,
                () -> run.topics().topics().stream()
                                .flatMap(topic -> topic.partitions().stream())
                                .filter(partition -> ids(partition.replicas()).contains(node))
                                .allMatch(partition -> ids(partition.isr()).contains(node))
                        ? ChaosJudge.round(run.clock().now() - since)
                        : null);
    }

    private static List<Integer> ids(List<Node> nodes) {
        return nodes.stream().map(Node::id).toList();
    }

    /**
     * Waits for a decision after {@code overAtMillis} on every partition, then measures from {@code faultAtMillis}. A
     * partition whose products all sold out after decisions resumed on it is not waited for: the API refuses their
     * checkouts at the door, so it gets no decision again (waiting for one cost the catch-up limit, 2 minutes, in
     * every run where a product sold out during the fault).
     */
    static List<PartitionStall> measure(FaultRun run, Collection<Integer> held, long faultAtMillis, long overAtMillis) {
        var byPartition = byPartition(run);
        FaultRun.poll(
                ChaosSettings.CATCH_UP_LIMIT,
                FaultRun.POLL,
                () -> decidedAfter(run, byPartition, faultAtMillis, overAtMillis) ? true : null);
        var times = run.database().decisionTimes(run.products(), faultAtMillis, System.currentTimeMillis());
        var stalls = new ArrayList<PartitionStall>();
        byPartition.forEach((partition, products) -> stalls.add(new PartitionStall(
                partition,
                held.contains(partition),
                longestGap(
                        faultAtMillis,
                        products.stream()
                                .flatMap(product -> times.getOrDefault(product, List.of()).stream())
                                .sorted()
                                .toList()))));
        return stalls;
    }

    static Map<Integer, List<UUID>> byPartition(FaultRun run) {
        var partitions = run.topics().partitions(Topics.CHECKOUT_COMMANDS).size();
        var byPartition = new TreeMap<Integer, List<UUID>>();
        for (var product : run.products()) {
            byPartition
                    .computeIfAbsent(ProcessFaults.partitionOf(product, partitions), none -> new ArrayList<>())
                    .add(product);
        }
        return byPartition;
    }

    /** Seconds: the longest of the gaps from {@code from} through the sorted decisions; null for none. */
    static @Nullable Double longestGap(long from, List<Long> decisions) {
        if (decisions.isEmpty()) {
            return null;
        }
        var longest = 0L;
        var last = from;
        for (var decision : decisions) {
            longest = Math.max(longest, decision - last);
            last = decision;
        }
        return ChaosJudge.round(longest / 1000.0);
    }

    private static boolean decidedAfter(
            FaultRun run, Map<Integer, List<UUID>> byPartition, long faultAtMillis, long overAtMillis) {
        return caughtUp(
                byPartition,
                run.database().decisionTimes(run.products(), faultAtMillis, System.currentTimeMillis()),
                run.database().soldOut(run.products()),
                overAtMillis);
    }

    /**
     * Every partition has a decision of its products after {@code overAtMillis} among {@code decisions} (those since
     * the fault), or its products all sold out after a decision since the fault.
     */
    static boolean caughtUp(
            Map<Integer, List<UUID>> byPartition,
            Map<UUID, List<Long>> decisions,
            Set<UUID> soldOut,
            long overAtMillis) {
        return byPartition.values().stream()
                .allMatch(products -> products.stream()
                                .anyMatch(product -> decisions.getOrDefault(product, List.of()).stream()
                                        .anyMatch(time -> time > overAtMillis))
                        || (soldOut.containsAll(products) && products.stream().anyMatch(decisions::containsKey)));
    }
}
