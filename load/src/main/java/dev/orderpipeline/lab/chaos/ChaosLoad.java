package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.soak.OpenModelSchedule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The sustained load of a chaos run: checkouts of the prepared orders started on an open-model schedule (the soak's
 * {@link OpenModelSchedule}), whatever the answers do, at most {@code maxInFlight} first attempts at once. It behaves
 * as a careful client does: a 503 is retried after its {@code Retry-After}, a request without an answer after a
 * second, up to {@code maxAttempts} in all, the same order each time (the API derives the command id from it, so a
 * retry cannot check out twice).
 */
final class ChaosLoad implements AutoCloseable {

    /** A retry after no answer at all waits this long: there is no Retry-After to follow. */
    static final Duration UNANSWERED_RETRY = Duration.ofSeconds(1);

    /** A 503 without a usable Retry-After is retried after this long (and counted: the API must send one). */
    static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);

    private static final int BODY_SAMPLES = 20;

    private final List<CheckoutCaller> apis;
    private final List<PreparedOrder> orders;
    private final OpenModelSchedule schedule;
    private final int maxAttempts;
    private final RunClock clock;
    private final Progress progress;
    private final Semaphore inFlight;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger scheduled = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final Queue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    private final Queue<String> unexpectedBodies = new ConcurrentLinkedQueue<>();
    private final Map<UUID, Long> acceptedNotSeenDecided = new ConcurrentHashMap<>();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Thread scheduler;
    private volatile boolean stopping;
    private volatile double stoppedAt = -1;

    ChaosLoad(
            List<CheckoutCaller> apis,
            List<PreparedOrder> orders,
            int rate,
            int maxInFlight,
            int maxAttempts,
            RunClock clock,
            Progress progress) {
        if (apis.isEmpty() || orders.isEmpty()) {
            throw new IllegalArgumentException("the load needs an API and orders");
        }
        this.apis = List.copyOf(apis);
        this.orders = List.copyOf(orders);
        // open-ended: the load runs until it is stopped or the orders run out
        this.schedule = new OpenModelSchedule(rate, Duration.ofDays(1));
        this.maxAttempts = maxAttempts;
        this.clock = clock;
        this.progress = progress;
        this.inFlight = new Semaphore(maxInFlight);
        this.scheduler = new Thread(this::schedule, "chaos-load-scheduler");
        scheduler.setDaemon(true);
    }

    /** Starts scheduling arrivals; the first is due at the clock's start. */
    ChaosLoad start() {
        scheduler.start();
        return this;
    }

    /** No new arrivals from now on; retries of earlier ones go on. */
    void stop() {
        if (!stopping) {
            stoppedAt = clock.now();
        }
        stopping = true;
        scheduler.interrupt();
        try {
            scheduler.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until no request is in flight and no retry is waiting, up to {@code timeout}; true if quiet. */
    boolean awaitQuiet(Duration timeout) {
        var deadline = System.nanoTime() + timeout.toNanos();
        while (pending.get() > 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        return true;
    }

    /** Whether every prepared order was scheduled before the load was stopped. */
    boolean ranOutOfOrders() {
        return scheduled.get() >= orders.size();
    }

    /** Seconds since the start when arrivals ended (stopped, or orders ran out); the time now while running. */
    double arrivalsEndedAt() {
        return stoppedAt >= 0 ? stoppedAt : clock.now();
    }

    int scheduled() {
        return scheduled.get();
    }

    long dropped() {
        return dropped.get();
    }

    int pending() {
        return pending.get();
    }

    /** Every attempt so far, in no particular order. */
    List<Attempt> attempts() {
        return new ArrayList<>(attempts);
    }

    /** Bodies of answers other than 202, 409 and 503 (a few), with their status. */
    List<String> unexpectedBodies() {
        return List.copyOf(unexpectedBodies);
    }

    /**
     * Orders accepted (202) at least {@code age} ago that have not been reported decided to {@link
     * #markDecided(Collection)}: what the pipeline still owes.
     */
    List<UUID> acceptedBefore(Duration age) {
        var limit = System.nanoTime() - age.toNanos();
        var owed = new ArrayList<UUID>();
        acceptedNotSeenDecided.forEach((order, acceptedAt) -> {
            if (acceptedAt - limit <= 0) {
                owed.add(order);
            }
        });
        return owed;
    }

    void markDecided(Collection<UUID> decided) {
        decided.forEach(acceptedNotSeenDecided::remove);
    }

    @Override
    public void close() {
        stop();
        executor.shutdownNow();
    }

    private void schedule() {
        for (var index = 0; index < orders.size(); index++) {
            var due = clock.startNanos() + schedule.offsetNanos(index);
            while (!stopping && System.nanoTime() - due < 0) {
                LockSupport.parkNanos(due - System.nanoTime());
            }
            if (stopping) {
                return;
            }
            scheduled.incrementAndGet();
            if (!inFlight.tryAcquire()) {
                dropped.incrementAndGet();
                continue;
            }
            pending.incrementAndGet();
            var order = index;
            executor.execute(() -> attempt(order, 1));
        }
        stoppedAt = clock.now();
    }

    /** Schedules a retry; false when the load is closed and nothing will run it. */
    private boolean retryLater(int index, int number, Duration delay) {
        try {
            executor.execute(() -> {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException ex) {
                    // the load is closing: the retry is given up
                    Thread.currentThread().interrupt();
                    pending.decrementAndGet();
                    return;
                }
                attempt(index, number);
            });
            return true;
        } catch (RejectedExecutionException ex) {
            return false;
        }
    }

    private void attempt(int index, int number) {
        var retry = false;
        try {
            var order = orders.get(index);
            var api = apis.get(index % apis.size());
            var sent = System.nanoTime();
            var answer = api.checkout(order.orderId(), order.userId());
            var answered = System.nanoTime();
            attempts.add(new Attempt(
                    index,
                    number,
                    clock.seconds(sent),
                    clock.seconds(answered),
                    answer.status(),
                    answer.retryAfterSeconds() != null));
            progress.advance();
            if (answer.accepted()) {
                acceptedNotSeenDecided.put(order.orderId(), answered);
            }
            if (!answer.body().isEmpty() && unexpectedBodies.size() < BODY_SAMPLES) {
                unexpectedBodies.add(answer.status() + ": " + answer.body());
            }
            retry = (answer.unavailable() || answer.unanswered()) && number < maxAttempts;
            if (retry) {
                var delay = answer.unanswered()
                        ? UNANSWERED_RETRY
                        : answer.retryAfterSeconds() != null
                                ? Duration.ofSeconds(answer.retryAfterSeconds())
                                : DEFAULT_RETRY;
                retry = retryLater(index, number + 1, delay);
            }
        } finally {
            if (number == 1) {
                inFlight.release();
            }
            if (!retry) {
                pending.decrementAndGet();
            }
        }
    }
}
