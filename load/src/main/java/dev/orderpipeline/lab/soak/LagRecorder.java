package dev.orderpipeline.lab.soak;

import dev.orderpipeline.lab.backlog.GroupWatch;
import dev.orderpipeline.lab.backlog.LagTimeline;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the workers' consumer group lag once a second during a kafka run (end offsets of the command topic minus
 * the group's committed offsets), so the report can say whether decisions kept up with acceptances: a bounded lag,
 * or one that grows for as long as arrivals go on.
 */
final class LagRecorder {

    private static final Logger log = LoggerFactory.getLogger(LagRecorder.class);
    private static final Duration PERIOD = Duration.ofSeconds(1);

    private final GroupWatch watch;
    private final String group;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("lab-lag-recorder").daemon().factory());
    private long maxLag;
    private long lagAtLastArrival;
    private boolean arrivalsOver;

    private LagRecorder(String bootstrapServers, String group) {
        this.watch = new GroupWatch(bootstrapServers);
        this.group = group;
    }

    /** Starts reading; {@code startNanos} is when the first arrival is due. */
    static LagRecorder start(String bootstrapServers, String group, long startNanos) {
        var recorder = new LagRecorder(bootstrapServers, group);
        recorder.sampler.scheduleAtFixedRate(
                recorder::sample, startNanos - System.nanoTime(), PERIOD.toNanos(), TimeUnit.NANOSECONDS);
        return recorder;
    }

    /** The last checkout was due now: later readings no longer count as the lag at the last arrival. */
    synchronized void lastArrival() {
        arrivalsOver = true;
    }

    /** Stops reading and sums up. */
    SoakRun.KafkaFigures stop(long accepted, long decided) {
        sampler.shutdown();
        try {
            sampler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        watch.close();
        synchronized (this) {
            return new SoakRun.KafkaFigures(accepted, decided, maxLag, lagAtLastArrival);
        }
    }

    private void sample() {
        try {
            var sample = watch.sample(group, 0, false);
            var total = sample.end().entrySet().stream()
                    .mapToLong(end ->
                            LagTimeline.lag(end.getValue(), sample.committed().get(end.getKey()), 0))
                    .sum();
            synchronized (this) {
                maxLag = Math.max(maxLag, total);
                if (!arrivalsOver) {
                    lagAtLastArrival = total;
                }
            }
        } catch (IllegalStateException ex) {
            log.debug("Could not read the lag of group {}", group, ex);
        }
    }
}
