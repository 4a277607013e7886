package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.infra.LocalStack;
import dev.orderpipeline.lab.backlog.GroupWatch;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import dev.orderpipeline.lab.chaos.ChaosRun.Takeover;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the faults of one chaos run are done to and with; the run tag names the poison and the replay group. */
record FaultRun(
        LocalStack stack,
        ChaosSettings settings,
        RunClock clock,
        String runTag,
        GroupWatch topics,
        ChaosDatabase database,
        List<UUID> products,
        @Nullable Decoys decoys) {

    private static final Logger log = LoggerFactory.getLogger(FaultRun.class);
    private static final String WORKER_NAME = "checkout-worker-\\d+";

    static final Duration POLL = Duration.ofMillis(200);

    record Decoys(UUID product, List<PreparedOrder> orders) {}

    record Done(
            double end,
            String detail,
            @Nullable String failure,
            @Nullable Takeover takeover) {}

    FaultWindow carryOut(FaultKind kind, int number) {
        var name = kind.windowName(number);
        var start = clock.now();
        try {
            var done = kind.injection.inject(this, number, start);
            return new FaultWindow(kind, name, start, done.end(), done.detail(), done.failure(), done.takeover());
        } catch (RuntimeException ex) {
            log.error("{} failed", name, ex);
            var why = ex.getMessage() == null ? "unknown failure" : ex.getMessage();
            return new FaultWindow(kind, name, start, clock.now(), "not carried out", why, null);
        }
    }

    Done done(String detail) {
        return new Done(clock.now(), detail, null, null);
    }

    /** The workers started with the stack, {@code checkout-worker-1}, {@code -2}...: the ones the kills go to. */
    List<AppProcess> mainWorkers() {
        var workers = stack.workers().stream()
                .filter(worker -> worker.name().matches(WORKER_NAME))
                .toList();
        if (workers.isEmpty()) {
            throw new IllegalStateException("no checkout-worker runs");
        }
        return workers;
    }

    /**
     * Asks {@code answer} every {@code every} until it answers, or {@code limit} passed (null then); an ask that fails
     * (the cluster electing, the database down) counts as no answer.
     */
    static <T> @Nullable T poll(Duration limit, Duration every, Supplier<@Nullable T> answer) {
        var deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            try {
                var answered = answer.get();
                if (answered != null) {
                    return answered;
                }
            } catch (IllegalStateException ex) {
                log.debug("Asked again: {}", ex.getMessage());
            }
            if (System.nanoTime() - deadline > 0) {
                return null;
            }
            pause(every);
        }
    }

    static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
