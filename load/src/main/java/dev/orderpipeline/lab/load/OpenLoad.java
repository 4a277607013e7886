package dev.orderpipeline.lab.load;

import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Starts arrivals on an {@link OpenModelSchedule} from a thread of its own, each on a virtual thread, at most {@code
 * maxInFlight} at once: an arrival due while that many are in flight is dropped and counted, never queued, so a slow
 * system cannot slow its own load down. Arrivals go on until {@code arrivals} were due or {@link #stop()}.
 */
public final class OpenLoad implements AutoCloseable {

    /**
     * The lab's default bound on requests in flight: under the connections one order-api holds (its {@code
     * server.tomcat.max-connections}, 200) and its bound on requests in progress (200). Past those, a request waits
     * unseen in the kernel's accept queue or is shed, and the load measures its own client instead of the API.
     */
    public static final int DEFAULT_MAX_IN_FLIGHT = 180;

    /** What the load does with each arrival. */
    public interface Arrivals {

        /** Sends arrival {@code index}, due at {@code dueNanos} ({@link System#nanoTime()}); on a thread of its own. */
        void send(int index, long dueNanos);

        /** Arrival {@code index} was due while the in-flight bound was reached, and was not sent. */
        default void dropped(int index) {}
    }

    private final OpenModelSchedule schedule;
    private final int arrivals;
    private final int maxInFlight;
    private final Arrivals target;
    private final Semaphore inFlight;
    private final AtomicLong scheduled = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final LatencyRecorder latency = new LatencyRecorder();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Thread scheduler;
    private volatile long startNanos;
    private volatile long endedNanos;
    private volatile boolean stopping;

    public OpenLoad(OpenModelSchedule schedule, int arrivals, int maxInFlight, Arrivals target) {
        if (arrivals < 0 || maxInFlight < 1) {
            throw new IllegalArgumentException("arrivals must not be negative and max in flight must be positive");
        }
        this.schedule = schedule;
        this.arrivals = arrivals;
        this.maxInFlight = maxInFlight;
        this.target = target;
        this.inFlight = new Semaphore(maxInFlight);
        this.scheduler = Thread.ofPlatform().name("open-load").daemon().unstarted(this::schedule);
    }

    /** Starts the arrivals; the first is due at {@code startNanos} ({@link System#nanoTime()}). */
    public OpenLoad start(long startNanos) {
        this.startNanos = startNanos;
        scheduler.start();
        return this;
    }

    /** Waits until every arrival was due (or the load was stopped). */
    public void awaitArrivals() {
        try {
            scheduler.join();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the load ran", ex);
        }
    }

    /** No new arrivals from now on; those in flight go on. */
    public void stop() {
        stopping = true;
        scheduler.interrupt();
        try {
            scheduler.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until nothing is in flight, up to {@code timeout}; true if so. */
    public boolean awaitIdle(Duration timeout) {
        try {
            if (!inFlight.tryAcquire(maxInFlight, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return false;
            }
            inFlight.release(maxInFlight);
            return true;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining", ex);
        }
    }

    /** Arrivals that were due, sent or dropped. */
    public long scheduled() {
        return scheduled.get();
    }

    public long dropped() {
        return dropped.get();
    }

    /** When arrivals ended ({@link System#nanoTime()}): stopped, or the last one was due; 0 while they go on. */
    public long endedNanos() {
        return endedNanos;
    }

    /** From each sent arrival's scheduled start to the end of its {@link Arrivals#send}. */
    public Latency latency() {
        return latency.summary();
    }

    /** Stops the arrivals and waits for those in flight. */
    @Override
    public void close() {
        stop();
        executor.close();
    }

    private void schedule() {
        for (var index = 0; index < arrivals && !stopping; index++) {
            var due = startNanos + schedule.offsetNanos(index);
            for (var wait = due - System.nanoTime(); wait > 0 && !stopping; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            if (stopping) {
                break;
            }
            scheduled.incrementAndGet();
            if (!inFlight.tryAcquire()) {
                dropped.incrementAndGet();
                target.dropped(index);
                continue;
            }
            var arrival = index;
            executor.execute(() -> {
                try {
                    target.send(arrival, due);
                    latency.recordNanos(System.nanoTime() - due);
                } finally {
                    inFlight.release();
                }
            });
        }
        endedNanos = System.nanoTime();
    }
}
