package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.common.utils.Utils;

/**
 * kill -9 of a checkout-worker, restarted at once: {@code worker-kill} rebalances, {@code -restart} as a static member.
 */
final class WorkerKills {

    /** The live consumer group: the workers the stack starts use the worker's default group id. */
    static final String LIVE_GROUP = "checkout-worker";

    private WorkerKills() {}

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
        var partitionCount = run.topics().endOffsets(Topics.CHECKOUT_COMMANDS).size();
        return choose(
                workers.stream().map(AppProcess::name).toList(),
                run.topics().members(LIVE_GROUP, Topics.CHECKOUT_COMMANDS),
                run.products().stream()
                        .collect(
                                Collectors.toMap(product -> product, product -> partitionOf(product, partitionCount))));
    }

    record Victim(int worker, boolean staticMember, List<Integer> partitions, List<UUID> products) {}

    /** The worker whose partitions carry most of the products; without static members, the first, watching all. */
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
}
