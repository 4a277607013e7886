package dev.orderpipeline.lab.soak;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.backlog.GroupWatch;
import dev.orderpipeline.lab.backlog.LagTimeline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
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
    private static final Duration SETTLE = Duration.ofSeconds(30);

    private final GroupWatch watch;
    private final String group;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("lab-lag-recorder").daemon().factory());
    private final List<Long> lag = new ArrayList<>();
    private final List<Long> atNanos = new ArrayList<>();
    private volatile long lastArrivalNanos = -1;

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

    /** The last checkout was due now. */
    void lastArrival() {
        lastArrivalNanos = System.nanoTime();
    }

    /** Waits (a while) for the lag to reach zero, stops, and sums up. */
    SoakRun.KafkaFigures stop(long accepted, long decided) {
        var deadline = System.nanoTime() + SETTLE.toNanos();
        while (secondsToZero() == null && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
        sampler.shutdown();
        try {
            sampler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        watch.close();
        synchronized (this) {
            long atLastArrival = 0;
            for (var i = 0; i < lag.size(); i++) {
                if (lastArrivalNanos > 0 && atNanos.get(i) <= lastArrivalNanos) {
                    atLastArrival = lag.get(i);
                }
            }
            var max = lag.stream().mapToLong(Long::longValue).reduce(0, Math::max);
            return new SoakRun.KafkaFigures(accepted, decided, max, atLastArrival, secondsToZero());
        }
    }

    /** From the last arrival to the first reading of a lag of zero after it, to a tenth; null before that. */
    private synchronized @Nullable Double secondsToZero() {
        for (var i = 0; i < lag.size(); i++) {
            if (lastArrivalNanos > 0 && atNanos.get(i) > lastArrivalNanos && lag.get(i) == 0) {
                return Math.round(Math.max(0, (atNanos.get(i) - lastArrivalNanos) / 1e9) * 10) / 10.0;
            }
        }
        return null;
    }

    private void sample() {
        try {
            var end = watch.endOffsets(Topics.CHECKOUT_COMMANDS);
            var committed = watch.committed(group);
            long total = 0;
            for (var partition : end.entrySet()) {
                total += LagTimeline.lag(partition.getValue(), committed.get(partition.getKey()), 0);
            }
            synchronized (this) {
                lag.add(total);
                atNanos.add(System.nanoTime());
            }
        } catch (IllegalStateException ex) {
            log.debug("Could not read the lag of group {}", group, ex);
        }
    }
}
