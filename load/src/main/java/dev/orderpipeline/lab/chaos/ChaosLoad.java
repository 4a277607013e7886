package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.load.OpenLoad;
import dev.orderpipeline.lab.load.OpenModelSchedule;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ApiClient;
import dev.orderpipeline.lab.pipeline.Strategies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The load of a chaos run, retrying as a careful client; at most {@code maxInFlight} requests on the wire at once, as a
 * client's pool, or the retries swamp the API's accept queue. It runs until stopped, on prepared orders that the
 * experiment {@link #add adds} to while it runs; an arrival with none left is counted as {@link #ranDry}.
 */
final class ChaosLoad implements AutoCloseable, OpenLoad.Arrivals {

    /** The wait before a retry without a Retry-After to follow: no answer, or a 503 without one (counted). */
    private static final Duration RETRY = Duration.ofSeconds(1);

    private final List<ApiClient> apis;
    private final List<PreparedOrder> orders = new CopyOnWriteArrayList<>();
    private final RunClock clock;
    private final Progress progress;
    private final OpenLoad load;
    /** Places on the wire: a request holds one from just before it is sent until its answer. */
    private final Semaphore onTheWire;

    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicInteger ranDry = new AtomicInteger();

    private final Queue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    private final Map<UUID, Long> acceptedNotSeenDecided = new ConcurrentHashMap<>();
    private final ExecutorService retries = Executors.newVirtualThreadPerTaskExecutor();

    ChaosLoad(
            List<ApiClient> apis,
            List<PreparedOrder> orders,
            ChaosSettings settings,
            RunClock clock,
            Progress progress) {
        if (apis.isEmpty() || orders.isEmpty()) {
            throw new IllegalArgumentException("the load needs an API and orders");
        }
        this.apis = List.copyOf(apis);
        this.orders.addAll(orders);
        this.clock = clock;
        this.progress = progress;
        // open-ended: the load runs until it is stopped
        var schedule = new OpenModelSchedule(settings.rate(), Duration.ofDays(1));
        this.load = new OpenLoad(schedule, Integer.MAX_VALUE, settings.maxInFlight(), this);
        this.onTheWire = new Semaphore(settings.maxInFlight());
    }

    ChaosLoad start() {
        load.start(clock.startNanos());
        return this;
    }

    void stop() {
        load.stop();
    }

    /** Waits until no request is in flight and no retry is waiting, up to {@code timeout}; true if quiet. */
    boolean awaitQuiet(Duration timeout) {
        return load.awaitIdle(timeout)
                && FaultRun.poll(timeout, Duration.ofMillis(50), () -> pending.get() == 0 ? true : null) != null;
    }

    /** Seconds since the start when arrivals ended; the time now while running. */
    double arrivalsEndedAt() {
        var ended = load.endedNanos();
        return ended == 0 ? clock.now() : clock.seconds(ended);
    }

    /** Arrivals dropped while {@code maxInFlight} first attempts were on the wire. */
    long dropped() {
        return load.dropped();
    }

    int pending() {
        return pending.get();
    }

    /** The orders so far, by index. */
    List<PreparedOrder> orders() {
        return List.copyOf(orders);
    }

    int size() {
        return orders.size();
    }

    void add(List<PreparedOrder> more) {
        orders.addAll(more);
    }

    /** Prepared orders no arrival has taken yet. */
    long left() {
        return orders.size() - load.scheduled();
    }

    /** Arrivals that found no prepared order left, and were not sent. */
    int ranDry() {
        return ranDry.get();
    }

    List<Attempt> attempts() {
        return new ArrayList<>(attempts);
    }

    /** Orders accepted at least {@code age} ago and not yet {@link #markDecided marked decided}: still owed. */
    List<UUID> acceptedBefore(Duration age) {
        var limit = System.nanoTime() - age.toNanos();
        return acceptedNotSeenDecided.entrySet().stream()
                .filter(accepted -> accepted.getValue() - limit <= 0)
                .map(Map.Entry::getKey)
                .toList();
    }

    void markDecided(Collection<UUID> decided) {
        decided.forEach(acceptedNotSeenDecided::remove);
    }

    @Override
    public void close() {
        retries.shutdownNow();
        load.close();
    }

    @Override
    public void send(int index, long dueNanos) {
        if (index >= orders.size()) {
            ranDry.incrementAndGet();
            return;
        }
        pending.incrementAndGet();
        attempt(index, 1);
    }

    private void attempt(int index, int number) {
        var retry = false;
        try {
            var order = orders.get(index);
            try {
                onTheWire.acquire();
            } catch (InterruptedException ex) {
                // the load is closing: the attempt is given up
                Thread.currentThread().interrupt();
                return;
            }
            long sent;
            long answered;
            ApiClient.CheckoutAnswer answer;
            try {
                sent = System.nanoTime();
                answer = apis.get(index % apis.size())
                        .answerCheckout(order.orderId(), order.userId(), Strategies.KAFKA, null);
                answered = System.nanoTime();
            } finally {
                onTheWire.release();
            }
            // the run reads the codes: a 503 outcome-unknown is retried as any 503
            var status = unanswered(answer) ? answer.status() : Integer.toString(answer.code());
            attempts.add(new Attempt(
                    index,
                    number,
                    clock.seconds(sent),
                    clock.seconds(answered),
                    status,
                    answer.retryAfterSeconds() != null));
            progress.advance();
            if ("202".equals(status)) {
                acceptedNotSeenDecided.put(order.orderId(), answered);
            }
            retry = ("503".equals(status) || unanswered(answer))
                    && number < ChaosSettings.MAX_ATTEMPTS
                    && retryLater(index, number + 1, delay(answer));
        } finally {
            if (!retry) {
                pending.decrementAndGet();
            }
        }
    }

    /** The checkout may or may not have been handed to the broker. */
    private static boolean unanswered(ApiClient.CheckoutAnswer answer) {
        return answer.code() == 0;
    }

    private static Duration delay(ApiClient.CheckoutAnswer answer) {
        var retryAfter = answer.retryAfterSeconds();
        return retryAfter != null ? Duration.ofSeconds(retryAfter) : RETRY;
    }

    /** Schedules a retry; false when the load is closed and nothing will run it. */
    private boolean retryLater(int index, int number, Duration delay) {
        try {
            retries.execute(() -> {
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
}
