package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * The command and saga topics read again from offset 0 by a worker in fresh groups {@code replay-<run tag>[-suffix]},
 * until they reach the ends the topics had when it started.
 */
final class Replay {

    private static final Duration POLL = Duration.ofMillis(500);

    /** Each topic the worker consumes, by the suffix its consumer group has after the worker's group id. */
    private static final List<Map.Entry<String, String>> TOPICS_BY_GROUP_SUFFIX = List.of(
            Map.entry("", Topics.CHECKOUT_COMMANDS),
            Map.entry("-carts", Topics.CHECKOUT_CARTS),
            Map.entry("-reservations", Topics.CHECKOUT_RESERVATIONS),
            Map.entry("-reservation-replies", Topics.CHECKOUT_RESERVATION_REPLIES));

    record Replayed(String group, String topic, Map<TopicPartition, Long> end) {

        long records() {
            return end.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private Replay() {}

    static Done inject(FaultRun run, int number, double start) {
        var group = "replay-" + run.runTag();
        var replayed = TOPICS_BY_GROUP_SUFFIX.stream()
                .map(topic -> new Replayed(
                        group + topic.getKey(), topic.getValue(), run.topics().endOffsets(topic.getValue())))
                .toList();
        @Nullable AppProcess worker = null;
        try {
            worker = run.stack()
                    .addWorker("checkout-worker-replay", List.of("--orderpipeline.worker.group-id=" + group));
            return follow(run, group, replayed, start, run.clock().now());
        } finally {
            if (worker != null && worker.isAlive()) {
                worker.stop();
            }
        }
    }

    private static Done follow(FaultRun run, String group, List<Replayed> replayed, double start, double ready) {
        var records = replayed.stream().mapToLong(Replayed::records).sum();
        var limit = run.settings().replayLimit();
        var deadline = System.nanoTime() + limit.toNanos();
        for (var behind = behind(run, replayed); behind > 0; behind = behind(run, replayed)) {
            if (System.nanoTime() - deadline > 0) {
                return new Done(
                        run.clock().now(),
                        "group " + group + " and its saga groups still " + behind + " of " + records
                                + " records behind",
                        "the replay did not reach the end within " + limit.toSeconds() + " s",
                        null);
            }
            FaultRun.pause(POLL);
        }
        var caughtUp = run.clock().now();
        return run.done(String.format(
                Locale.ROOT,
                "a worker in group %s started in %.1f s and read all %d records the topics had (from offset 0: %s)"
                        + " in %.1f s more (%.0f records/s) beside the live groups",
                group,
                ready - start,
                records,
                String.join(
                        ", ",
                        replayed.stream()
                                .map(each -> String.format(Locale.ROOT, "%,d of %s", each.records(), each.topic()))
                                .toList()),
                caughtUp - ready,
                records / Math.max(0.001, caughtUp - ready)));
    }

    private static long behind(FaultRun run, List<Replayed> replayed) {
        var behind = 0L;
        for (var each : replayed) {
            var committed = run.topics().committed(each.group(), each.topic());
            behind += each.end().entrySet().stream()
                    .mapToLong(entry -> Math.max(0, entry.getValue() - committed.getOrDefault(entry.getKey(), 0L)))
                    .sum();
        }
        return behind;
    }
}
