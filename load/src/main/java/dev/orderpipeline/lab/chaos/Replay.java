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
 * The whole command topic read again from offset 0 by a worker in the consumer group {@code replay-<run tag>} (a
 * new group starts at the earliest offset) beside the live group; the window ends when its committed offsets reach
 * the end the topic had when it started. Then it is stopped.
 */
final class Replay implements Fault {

    private static final Duration POLL = Duration.ofMillis(500);

    @Override
    public Duration planned(ChaosSettings settings) {
        return Duration.ofSeconds(60).plus(settings.recovery());
    }

    @Override
    public void inject(FaultRun run) {
        run.once(FaultKind.REPLAY, "replay from offset 0", "replay from offset 0", start -> {
            var group = "replay-" + run.runTag();
            var end = run.topics().endOffsets(Topics.CHECKOUT_COMMANDS);
            @Nullable AppProcess worker = null;
            try {
                worker = run.stack()
                        .addWorker("checkout-worker-replay", List.of("--orderpipeline.worker.group-id=" + group));
                return follow(run, group, end, start, run.clock().now());
            } finally {
                if (worker != null && worker.isAlive()) {
                    worker.stop();
                }
            }
        });
    }

    /** Waits until the group's committed offsets reach {@code end}, up to the replay limit. */
    private static Done follow(FaultRun run, String group, Map<TopicPartition, Long> end, double start, double ready) {
        var records = end.values().stream().mapToLong(Long::longValue).sum();
        var limit = run.settings().replayLimit();
        var deadline = System.nanoTime() + limit.toNanos();
        for (var behind = behind(run, group, end); behind > 0; behind = behind(run, group, end)) {
            if (System.nanoTime() - deadline > 0) {
                return new Done(
                        run.clock().now(),
                        "group " + group + " still " + behind + " of " + records + " records behind",
                        "the replay did not reach the end within " + limit.toSeconds() + " s",
                        null);
            }
            FaultRun.pause(POLL);
        }
        var caughtUp = run.clock().now();
        return run.done(String.format(
                Locale.ROOT,
                "a worker in group %s started in %.1f s and read all %d records the topic had (from offset 0) in"
                        + " %.1f s more (%.0f records/s) beside the live group",
                group,
                ready - start,
                records,
                caughtUp - ready,
                records / Math.max(0.001, caughtUp - ready)));
    }

    private static long behind(FaultRun run, String group, Map<TopicPartition, Long> end) {
        var committed = run.topics().committed(group, Topics.CHECKOUT_COMMANDS);
        return end.entrySet().stream()
                .mapToLong(entry -> Math.max(0, entry.getValue() - committed.getOrDefault(entry.getKey(), 0L)))
                .sum();
    }
}
