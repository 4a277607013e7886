package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.infra.LocalStack;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import dev.orderpipeline.lab.chaos.ChaosRun.WorkerRestart;
import dev.orderpipeline.lab.measure.Progress;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the faults of one chaos run are done to and with: the stack, the run's settings, clock, products and
 * readers, and the recovery each fault window is handed to.
 *
 * @param runTag the run's tag: in the poison records' header and the replay group's name
 * @param databaseFaults the database faults that leave PostgreSQL up
 * @param decoys the decoy orders poison records name, if poison is injected
 * @param recovery what follows each fault window: load until the pipeline caught up
 * @param resources what the pipeline uses, cut into phases at each fault's start
 */
record FaultRun(
        LocalStack stack,
        ChaosSettings settings,
        RunClock clock,
        String runTag,
        TopicReader topics,
        ChaosDatabase database,
        DatabaseFaults databaseFaults,
        List<UUID> products,
        @Nullable Decoys decoys,
        Progress progress,
        Consumer<FaultWindow> recovery,
        PoisonSent poison,
        PhaseSampler resources) {

    private static final Logger log = LoggerFactory.getLogger(FaultRun.class);
    private static final String WORKER_NAME = "checkout-worker-\\d+";

    /**
     * Orders that poison records name and nothing checks out, on a product of their own.
     */
    record Decoys(UUID product, int stock, List<PreparedOrder> orders) {

        Decoys {
            orders = List.copyOf(orders);
        }
    }

    /** How many poison records of each kind were written, and when the injection started. */
    static final class PoisonSent {

        private final Map<PoisonKind, Integer> sent = new EnumMap<>(PoisonKind.class);
        private double startedAt;

        void record(Map<PoisonKind, Integer> perKind, double at) {
            sent.putAll(perKind);
            startedAt = at;
        }

        /** In the kinds' order, which the report keeps. */
        Map<PoisonKind, Integer> sent() {
            return Collections.unmodifiableMap(new EnumMap<>(sent));
        }

        int total() {
            return sent.values().stream().mapToInt(Integer::intValue).sum();
        }

        double startedAt() {
            return startedAt;
        }
    }

    /**
     * What a fault did.
     *
     * @param end when it was over (seconds since the start)
     * @param failure why it was not carried out as planned, or null
     * @param restart {@code worker-kill-restart}: what the restart under the same name cost
     */
    record Done(
            double end,
            String detail,
            @Nullable String failure,
            @Nullable WorkerRestart restart) {}

    /** A fault's steps; {@code start} is when it began, seconds since the start. */
    @FunctionalInterface
    interface Steps {
        Done run(double start);
    }

    /**
     * Runs a fault's steps into its window, a phase of its own for the resources; one that throws gives a window with
     * the failure.
     */
    FaultWindow carryOut(FaultKind kind, String name, Steps steps) {
        resources.nextPhase();
        var start = clock.now();
        try {
            var done = steps.run(start);
            return new FaultWindow(kind, name, start, done.end(), done.detail(), done.failure(), done.restart());
        } catch (RuntimeException ex) {
            log.error("{} failed", name, ex);
            var why = ex.getMessage() == null ? "unknown failure" : ex.getMessage();
            return new FaultWindow(kind, name, start, clock.now(), "not carried out", why, null);
        } finally {
            // a worker, the broker or PostgreSQL may run as another process now
            resources.processesChanged();
        }
    }

    Done done(String detail) {
        return new Done(clock.now(), detail, null, null);
    }

    /** A fault done once: the progress line says {@code phase}, its window goes to the recovery. */
    void once(FaultKind kind, String phase, String name, Steps steps) {
        progress.phase(phase, 0);
        recover(carryOut(kind, name, steps));
    }

    void recover(FaultWindow window) {
        recovery.accept(window);
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

    static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
