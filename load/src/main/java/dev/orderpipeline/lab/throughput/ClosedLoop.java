package dev.orderpipeline.lab.throughput;

import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.StatusCounts;
import dev.orderpipeline.lab.pipeline.ApiClient;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A closed loop, as wrk runs one: each client sends its next checkout as soon as the previous one is answered, until
 * the duration has passed or the prepared orders run out. The clients take the orders in index order, so the ones
 * not sent are the last.
 */
final class ClosedLoop {

    /**
     * The orders a run checks out: order {@code i} belongs to user {@code i}.
     *
     * @param initialStock the products of the run, with the stock each started with
     */
    record Prepared(Map<UUID, Integer> initialStock, List<UUID> orders, List<String> users) {

        Prepared {
            initialStock = Collections.unmodifiableMap(new LinkedHashMap<>(initialStock));
            orders = List.copyOf(orders);
            users = List.copyOf(users);
        }

        int size() {
            return orders.size();
        }
    }

    /**
     * @param sent checkouts sent and answered (an answer may be an error)
     * @param seconds from the start of the clients until the last one stopped
     * @param ranOut whether the orders ran out before the duration had passed
     */
    record Result(long sent, Map<String, Long> statuses, Latency latency, double seconds, boolean ranOut) {}

    private ClosedLoop() {}

    static Result run(
            List<ApiClient> apis,
            String strategy,
            Prepared prepared,
            int connections,
            Duration duration,
            Progress progress) {
        var next = new AtomicInteger();
        var latency = new LatencyRecorder();
        var statuses = new StatusCounts();
        var start = System.nanoTime();
        var deadline = start + duration.toNanos();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var client = 0; client < connections; client++) {
                var api = apis.get(client % apis.size());
                executor.execute(() -> {
                    // the deadline first: every index taken is an order sent
                    while (System.nanoTime() - deadline < 0) {
                        var index = next.getAndIncrement();
                        if (index >= prepared.size()) {
                            return;
                        }
                        var sent = System.nanoTime();
                        statuses.add(api.checkout(
                                prepared.orders().get(index), prepared.users().get(index), strategy, null));
                        latency.recordNanos(System.nanoTime() - sent);
                        progress.advance();
                    }
                });
            }
        }
        var seconds = (System.nanoTime() - start) / 1e9;
        return new Result(
                Math.min(next.get(), prepared.size()),
                statuses.snapshot(),
                latency.summary(),
                seconds,
                next.get() > prepared.size());
    }
}
