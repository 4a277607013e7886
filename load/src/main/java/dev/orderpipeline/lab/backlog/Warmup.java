package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.time.Duration;

/**
 * A backlog spread over all partitions, drained and thrown away, before a measured run: workers that just joined pay
 * for class loading, JIT compilation and their first connections here rather than in the figures.
 */
public final class Warmup {

    private Warmup() {}

    /** Sends {@code commands} checkouts over 1,000 products and waits until the group has committed them all. */
    public static void run(
            StackTarget target,
            GroupWatch watch,
            String group,
            String tag,
            int commands,
            Duration timeout,
            Progress progress) {
        if (commands <= 0) {
            return;
        }
        var backlog = new BacklogWriter(target.database().dataSource())
                .create(
                        tag,
                        new KeyDistribution.Uniform(1_000),
                        commands,
                        orders -> 2 * orders,
                        tag.hashCode(),
                        Progress.silent());
        var start = watch.endOffsets(Topics.CHECKOUT_COMMANDS);
        progress.phase("warm-up (not reported)", backlog.size());
        CommandProducer.send(target.bootstrapServers(), backlog, false, Progress.silent());
        new LagFollower(watch, group, Duration.ofMillis(250), true, false)
                .follow(start, backlog.size(), System.nanoTime(), timeout, progress, (sample, consumed) -> {});
    }
}
