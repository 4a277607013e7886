package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.RejectReason;
import dev.orderpipeline.invariants.CartVerdict;
import dev.orderpipeline.invariants.IdempotencyRows;
import dev.orderpipeline.invariants.InvariantReport;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a chaos run did and found, its figures described where {@link ChaosReport} shows them. Times are seconds since
 * the load started. Every figure about outcomes comes from the database or the topics; the answers the load got are
 * only used for what the clients were told (statuses, retries) and for when a checkout was accepted.
 */
public record ChaosRun(
        String runTag,
        List<FaultWindow> faults,
        double arrivalsEndedAt,
        double faultsEndedAt,
        List<PhaseFigures> phases,
        AcceptanceFigures acceptance,
        RetryFigures retries,
        List<ProductBooks> products,
        List<PoisonFigures> poison,
        TopicFigures topics,
        @Nullable DecoyFigures decoy,
        @Nullable CartVerdict carts,
        List<ChaosSecond> timeline,
        List<Check> checks,
        List<String> notes) {

    public ChaosRun {
        faults = List.copyOf(faults);
        phases = List.copyOf(phases);
        products = List.copyOf(products);
        poison = List.copyOf(poison);
        timeline = List.copyOf(timeline);
        checks = List.copyOf(checks);
        notes = List.copyOf(notes);
    }

    ChaosRun withChecks(List<Check> judged) {
        return new ChaosRun(
                runTag,
                faults,
                arrivalsEndedAt,
                faultsEndedAt,
                phases,
                acceptance,
                retries,
                products,
                poison,
                topics,
                decoy,
                carts,
                timeline,
                judged,
                notes);
    }

    public boolean holds() {
        return checks.stream().allMatch(Check::holds);
    }

    /**
     * One window of a fault as injected.
     *
     * @param end when it was over: the killed worker ready again, the broker or database answering again, the
     *     replaying worker at the end the topic had when it started, the last poison record acknowledged
     * @param takeover only for {@code broker-kill} and {@code worker-freeze}
     */
    public record FaultWindow(
            FaultKind kind,
            String name,
            double start,
            double end,
            String detail,
            @Nullable String failure,
            @Nullable Takeover takeover) {}

    /**
     * A process lost under load, a broker killed or a worker frozen, and how the rest took over; seconds from the
     * fault. A time not seen within the catch-up limit is null.
     *
     * @param lost which process, and what it held
     * @param partitions each command partition the load's products are on
     * @param rejoinedAfter {@code broker-kill}: from the restart until every partition of every topic had the broker in
     *     its in-sync replicas again
     * @param staleTransactions {@code worker-freeze}: database sessions seen idle in a transaction for over a second
     *     while the worker was frozen (the frozen worker's: the others' transactions take milliseconds)
     * @param staleTransactionsEndedAfter {@code worker-freeze}: from the freeze until none was left
     * @param creations {@code worker-freeze}: orders created on the frozen worker's products while it was frozen
     */
    public record Takeover(
            String lost,
            List<PartitionStall> partitions,
            @Nullable Double rejoinedAfter,
            @Nullable Long staleTransactions,
            @Nullable Double staleTransactionsEndedAfter,
            @Nullable Creations creations) {

        public Takeover {
            partitions = List.copyOf(partitions);
        }

        /** The longest stall of any partition; null when one never resumed. */
        public @Nullable Double longestStall() {
            var longest = 0.0;
            for (var partition : partitions) {
                if (partition.longestStall() == null) {
                    return null;
                }
                longest = Math.max(longest, partition.longestStall());
            }
            return longest;
        }
    }

    /**
     * One command partition through the fault.
     *
     * @param products the load's products on it
     * @param held whether the lost process held it: the killed broker led it, the frozen worker owned it
     * @param longestStall the longest time from the fault on without a decision of its products (single-product
     *     orders), up to the end of the window; null if it had none after the fault
     */
    public record PartitionStall(
            int partition,
            int products,
            boolean held,
            @Nullable Double longestStall) {}

    /**
     * Orders created while a worker was frozen, on its products, one after the other.
     *
     * @param failed answered other than 201, or not at all
     * @param longest the slowest creation, seconds
     * @param poolTimeouts the API's connection-pool timeouts ({@code hikaricp_connections_timeout_total}) that the
     *     freeze added: requests that found the pool exhausted
     */
    public record Creations(int sent, int failed, double longest, long poolTimeouts) {}

    /**
     * The load from the start of a fault to the start of the next (the first phase: up to the first fault). The
     * times after the fault's end are null for the first phase and when nothing came.
     *
     * @param cartsAccepted null without carts
     * @param cartsMidSaga null for the first phase and without carts
     */
    public record PhaseFigures(
            String name,
            double from,
            double to,
            @Nullable FaultKind fault,
            Map<String, Long> statuses,
            long retries,
            long unavailableWithoutRetryAfter,
            long accepted,
            @Nullable Double firstDecisionAfter,
            @Nullable Double firstAcceptAfter,
            @Nullable Double caughtUpAfter,
            @Nullable Double longestStall,
            @Nullable Double maxTimeToFinal,
            long validDeadLettered,
            @Nullable Long cartsAccepted,
            @Nullable Long cartsMidSaga) {

        public PhaseFigures {
            statuses = new TreeMap<>(statuses);
        }

        public long count(String status) {
            return statuses.getOrDefault(status, 0L);
        }

        /** Answers other than 202, 409, 503 and 5xx: timeouts, I/O errors, other codes. */
        public long other() {
            return statuses.entrySet().stream()
                    .filter(entry -> !List.of("202", "409", "503").contains(entry.getKey())
                            && !entry.getKey().startsWith("5"))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
        }

        /** 5xx other than 503. */
        public long serverErrors() {
            return statuses.entrySet().stream()
                    .filter(entry -> entry.getKey().length() == 3
                            && entry.getKey().startsWith("5")
                            && !entry.getKey().equals("503"))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
        }
    }

    /** The checkouts the API accepted (202) and what the database says became of them. */
    public record AcceptanceFigures(
            long scheduled,
            long dropped,
            long accepted,
            long decided,
            long notDecided,
            List<UUID> notDecidedSample,
            @Nullable Double maxTimeToFinal,
            @Nullable Double p99TimeToFinal,
            @Nullable Double lastDecisionAfterFaults,
            long decidedWithoutAccept) {

        public AcceptanceFigures {
            notDecidedSample = List.copyOf(notDecidedSample);
        }
    }

    /** The load's retries. */
    public record RetryFigures(
            long ordersRetried,
            long retries,
            long afterUnavailable,
            long afterNoAnswer,
            long endedAccepted,
            long endedConflict,
            long endedUnavailable,
            long endedOther,
            long retriedDecided,
            long retriedPaidMoreThanOnce,
            long retriedProcessedMoreThanOnce) {}

    /**
     * One product's books after the run, from the database.
     *
     * @param processedDisagreeing idempotency rows whose outcome is not the order's status
     */
    public record ProductBooks(
            UUID productId,
            int initialStock,
            int stockLeft,
            long completed,
            long completedQuantity,
            long rejected,
            long rejectedOutOfStock,
            long drift,
            boolean oversold,
            long doublePayments,
            long paymentsWithoutCompletion,
            long payments,
            long decided,
            long processedRows,
            long processedDisagreeing,
            long notFinal) {

        static ProductBooks of(InvariantReport report, IdempotencyRows idempotency) {
            return new ProductBooks(
                    report.productId(),
                    report.initialStock(),
                    report.stockLeft(),
                    report.completedOrders(),
                    report.completedQuantity(),
                    report.rejectedOrders(),
                    report.rejectionsByReason().getOrDefault(RejectReason.INSUFFICIENT_STOCK.name(), 0L),
                    report.drift(),
                    report.oversold(),
                    report.doublePayments(),
                    report.paymentsWithoutCompletion(),
                    report.payments(),
                    idempotency.decidedOrders(),
                    idempotency.rows(),
                    idempotency.disagreeing(),
                    report.ordersNotFinal());
        }
    }

    /** One kind of poison record. */
    public record PoisonFigures(
            PoisonKind kind,
            long sent,
            long deadLettered,
            Map<String, Long> reasons,
            @Nullable Double lastDeadLetteredAfter) {

        public PoisonFigures {
            reasons = new TreeMap<>(reasons);
        }
    }

    /**
     * What the topics hold about the run.
     *
     * @param untaggedDeadLetters dead letters keyed by the run's products or orders that are not poison: real commands
     *     dead-lettered
     * @param untaggedDeadLetteredAt their dead letters' timestamps, to tell which fault each came with
     */
    public record TopicFigures(
            long commandRecords,
            long commandOrders,
            long commandOrdersNotDecided,
            long decidedNotInTopic,
            long resultRecords,
            long resultOrders,
            long duplicateResults,
            long deadLetters,
            long untaggedDeadLetters,
            Map<String, Long> untaggedReasons,
            List<Double> untaggedDeadLetteredAt) {

        public TopicFigures {
            untaggedReasons = new TreeMap<>(untaggedReasons);
            untaggedDeadLetteredAt = List.copyOf(untaggedDeadLetteredAt);
        }
    }

    /** The decoy product: its orders are named by poison records and never checked out, so nothing may change it. */
    public record DecoyFigures(
            UUID productId,
            int initialStock,
            int stockLeft,
            long orders,
            long notCreated,
            long payments,
            long processedRows) {

        public boolean untouched() {
            return stockLeft == initialStock && notCreated == 0 && payments == 0 && processedRows == 0;
        }
    }

    /**
     * One second of the run.
     *
     * @param failed other answers except 409: 5xx, timeouts, I/O errors
     * @param open accepted checkouts not decided at the end of this second
     */
    public record ChaosSecond(
            int second, long sent, long accepted, long unavailable, long failed, long decided, long open) {}

    /** One criterion a chaos run must meet. */
    public record Check(String what, String expected, String measured, boolean holds) {}
}
