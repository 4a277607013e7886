package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.lab.chaos.ChaosRun.WorkerRestart;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.common.utils.Utils;
import org.jspecify.annotations.Nullable;

/**
 * kill -9 of a checkout-worker. {@code worker-kill}: {@code workerKills} times (alternating between the first two),
 * each restarted at once as a supervisor would, and the group rebalances. {@code worker-kill-restart}: once, started
 * under the same name at once, as a supervisor restarting a pod in place does; the name is its {@code
 * group.instance.id}, so the group keeps its partitions for it instead of rebalancing. That victim is the worker whose
 * partitions carry most of the load's products, so that the pause shows in their decisions; it is measured from the
 * kill to the first decision of each of those products, and to the first offset the group commits again on its
 * partitions.
 */
final class WorkerKills {

    /** The live consumer group: the workers the stack starts use the worker's default group id. */
    static final String LIVE_GROUP = "checkout-worker";

    private static final Duration POLL = Duration.ofMillis(100);

    private WorkerKills() {}

    /** kill -9 of worker {@code number} (1, 2, 1...), then started again at once and awaited. */
    static Done killAndStart(FaultRun run, int number, double start) {
        var workers = run.mainWorkers();
        var worker = workers.get((number - 1) % Math.min(2, workers.size()));
        var pid = worker.pid();
        var exit = worker.kill();
        var killed = run.clock().now();
        worker.start();
        worker.awaitReady(run.stack().config().startupTimeout());
        return run.done(String.format(
                Locale.ROOT,
                "SIGKILL to %s (pid %d, exit code %d), started again at once as pid %d, ready %.1f s after the kill",
                worker.name(),
                pid,
                exit,
                worker.pid(),
                run.clock().now() - killed));
    }

    static Done killAndRestartUnderItsName(FaultRun run, int number, double start) {
        var workers = run.mainWorkers();
        var partitionCount = run.topics().endOffsets(Topics.CHECKOUT_COMMANDS).size();
        var partitionOf = run.products().stream()
                .collect(Collectors.toMap(product -> product, product -> partitionOf(product, partitionCount)));
        var victim = choose(
                workers.stream().map(AppProcess::name).toList(),
                run.topics().members(LIVE_GROUP, Topics.CHECKOUT_COMMANDS),
                partitionOf);
        return killAndRestart(run, workers.get(victim.worker()), victim);
    }

    /**
     * Who is killed and what is watched.
     *
     * @param worker index among the workers
     * @param partitions its partitions (empty if not a static member)
     * @param products the products watched: the load's products on its partitions, or all of them
     */
    record Victim(int worker, boolean staticMember, List<Integer> partitions, List<UUID> products) {

        Victim {
            partitions = List.copyOf(partitions);
            products = List.copyOf(products);
        }
    }

    /**
     * The worker whose partitions carry most of the products (the first on a tie). Members are told apart by their
     * instance id, the worker's name or, with more than one listener thread, the name and {@code -<index>}; without
     * one (dynamic membership) the first worker is chosen and every product watched.
     */
    static Victim choose(List<String> workers, List<TopicReader.Member> members, Map<UUID, Integer> partitionOf) {
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

    private static Done killAndRestart(FaultRun run, AppProcess worker, Victim victim) {
        var offsetsBefore = committed(run, victim.partitions());
        var pid = worker.pid();
        var killedAtMillis = System.currentTimeMillis();
        var killed = run.clock().now();
        var exit = worker.kill();
        worker.start();
        worker.awaitReady(run.stack().config().startupTimeout());
        var ready = run.clock().now() - killed;
        var resumed = awaitResumed(run, victim, offsetsBefore, killedAtMillis, killed);
        var restart = new WorkerRestart(
                worker.name(),
                victim.staticMember(),
                victim.partitions(),
                victim.products().size(),
                ChaosJudge.round(ready),
                resumed.committedAgainAfter(),
                resumed.firstDecisionAfter());
        var detail = String.format(
                Locale.ROOT,
                "SIGKILL to %s (pid %d, exit code %d, %s, partitions %s holding %d of the load's %d products), started"
                        + " again at once under its name as pid %d: ready %.1f s after the kill, offsets committed"
                        + " again after %s, decisions on its products again after %s",
                worker.name(),
                pid,
                exit,
                victim.staticMember() ? "a static member" : "no static member with its name in the group",
                victim.partitions(),
                victim.products().size(),
                run.products().size(),
                worker.pid(),
                ready,
                ChaosJudge.seconds(resumed.committedAgainAfter()),
                resumed.firstDecisionAfter() == null
                        ? "none within " + run.settings().catchUpLimit().toSeconds() + " s"
                        : ChaosJudge.seconds(resumed.firstDecisionAfter()));
        return new Done(run.clock().now(), detail, null, restart, null);
    }

    /**
     * Seconds from the kill until the group committed an offset on the victim's partitions again, and until every
     * watched product had a decision committed after the kill; null for what was not seen within the catch-up limit.
     */
    private record Resumed(
            @Nullable Double committedAgainAfter, @Nullable Double firstDecisionAfter) {}

    private static Resumed awaitResumed(
            FaultRun run, Victim victim, Map<Integer, Long> offsetsBefore, long killedAtMillis, double killed) {
        @Nullable Double committedAgain = null;
        @Nullable Double decidedAgain = null;
        var watchOffsets = !victim.partitions().isEmpty();
        var watchDecisions = !victim.products().isEmpty();
        var deadline = System.nanoTime() + run.settings().catchUpLimit().toNanos();
        while ((watchOffsets && committedAgain == null || watchDecisions && decidedAgain == null)
                && System.nanoTime() - deadline <= 0) {
            if (watchOffsets && committedAgain == null && moved(offsetsBefore, committed(run, victim.partitions()))) {
                committedAgain = ChaosJudge.round(run.clock().now() - killed);
            }
            if (watchDecisions && decidedAgain == null) {
                decidedAgain = decidedAgainAfter(run, victim.products(), killedAtMillis);
            }
            FaultRun.pause(POLL);
        }
        return new Resumed(committedAgain, decidedAgain);
    }

    /** Seconds from the kill until the last of the products had its first decision after it; null before. */
    private static @Nullable Double decidedAgainAfter(FaultRun run, List<UUID> products, long killedAtMillis) {
        var first = run.database().firstDecisionsAfter(products, killedAtMillis);
        return first.size() < products.size()
                ? null
                : ChaosJudge.round(Math.max(0, (Collections.max(first.values()) - killedAtMillis) / 1000.0));
    }

    /** The group's committed offsets on the partitions of the command topic; empty for none. */
    private static Map<Integer, Long> committed(FaultRun run, List<Integer> partitions) {
        return partitions.isEmpty()
                ? Map.of()
                : run.topics().committed(LIVE_GROUP, Topics.CHECKOUT_COMMANDS).entrySet().stream()
                        .filter(entry -> partitions.contains(entry.getKey().partition()))
                        .collect(Collectors.toMap(entry -> entry.getKey().partition(), Map.Entry::getValue));
    }

    private static boolean moved(Map<Integer, Long> before, Map<Integer, Long> now) {
        return now.entrySet().stream().anyMatch(entry -> entry.getValue() > before.getOrDefault(entry.getKey(), -1L));
    }
}
