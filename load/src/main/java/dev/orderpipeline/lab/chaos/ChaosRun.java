package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.invariants.CartVerdict;
import dev.orderpipeline.invariants.IdempotencyRows;
import dev.orderpipeline.invariants.InvariantReport;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * What a chaos run did and found, described where {@link ChaosReport} shows it; seconds since the load started.
 * Outcomes come from the database and the topics, never from what the clients were told.
 */
public record ChaosRun(
        List<FaultWindow> faults,
        List<PhaseFigures> phases,
        AcceptanceFigures acceptance,
        RetryFigures retries,
        List<InvariantReport> products,
        IdempotencyRows idempotency,
        List<PoisonFigures> poison,
        TopicFigures topics,
        @Nullable DecoyFigures decoy,
        @Nullable CartVerdict carts,
        List<ChaosSecond> timeline,
        List<Check> checks,
        List<String> notes) {

    public boolean holds() {
        return checks.stream().allMatch(Check::holds);
    }

    public record FaultWindow(
            FaultKind kind,
            String name,
            double start,
            double end,
            String detail,
            @Nullable String failure,
            @Nullable Takeover takeover) {}

    /**
     * A broker killed or a worker frozen, and how the rest took over; seconds from the fault, null if not seen within
     * the catch-up limit. {@code rejoinedAfter} is the broker-kill's, {@code freeze} the worker-freeze's.
     */
    public record Takeover(
            List<PartitionStall> partitions,
            @Nullable Double rejoinedAfter,
            @Nullable Freeze freeze) {}

    /** One command partition through the fault; {@code held}: the killed broker led it, the frozen worker owned it. */
    public record PartitionStall(
            int partition, boolean held, @Nullable Double longestStall) {}

    /** The sessions idle in a transaction when frozen and when none was left; the orders created while frozen. */
    public record Freeze(
            long staleTransactions,
            @Nullable Double staleTransactionsEndedAfter,
            int created,
            int failed,
            double longest,
            long poolTimeouts) {}

    /** The load from the start of a fault to the start of the next; the cart figures are null without carts. */
    public record PhaseFigures(
            String name,
            double from,
            double to,
            @Nullable FaultKind fault,
            Map<String, Long> statuses,
            long unavailableWithoutRetryAfter,
            @Nullable Double firstDecisionAfter,
            @Nullable Double caughtUpAfter,
            @Nullable Double longestStall,
            @Nullable Double maxTimeToFinal,
            long validDeadLettered,
            @Nullable Long cartsMidSaga) {

        public PhaseFigures {
            statuses = new TreeMap<>(statuses);
        }

        public long count(String status) {
            return statuses.getOrDefault(status, 0L);
        }

        /** Answers other than 202, 409, 503 and 5xx: timeouts, I/O errors, other codes. */
        public long other() {
            return count(status -> !List.of("202", "409", "503").contains(status) && !status.startsWith("5"));
        }

        public long serverErrors() {
            return count(status -> status.length() == 3 && status.startsWith("5") && !status.equals("503"));
        }

        private long count(Predicate<String> status) {
            return statuses.entrySet().stream()
                    .filter(entry -> status.test(entry.getKey()))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
        }
    }

    public record AcceptanceFigures(
            long accepted,
            long notDecided,
            List<UUID> notDecidedSample,
            @Nullable Double maxTimeToFinal,
            @Nullable Double p99TimeToFinal,
            @Nullable Double lastDecisionAfterFaults) {}

    public record RetryFigures(
            long ordersRetried,
            long retries,
            long endedAccepted,
            long endedConflict,
            long endedUnavailable,
            long endedOther,
            long retriedPaidMoreThanOnce,
            long retriedProcessedMoreThanOnce) {}

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

    /** What the topics hold about the run; the untagged dead letters are real commands, not poison. */
    public record TopicFigures(
            long commandOrders,
            long commandOrdersNotDecided,
            long duplicateResults,
            Map<String, Long> untaggedReasons,
            List<Double> untaggedDeadLetteredAt) {

        public TopicFigures {
            untaggedReasons = new TreeMap<>(untaggedReasons);
            untaggedDeadLetteredAt = List.copyOf(untaggedDeadLetteredAt);
        }
    }

    /** The decoy product: its orders are named by poison records and never checked out, so nothing may change it. */
    public record DecoyFigures(int initialStock, int stockLeft, long notCreated, long payments, long processedRows) {

        public boolean untouched() {
            return stockLeft == initialStock && notCreated == 0 && payments == 0 && processedRows == 0;
        }
    }

    public record ChaosSecond(int second, long accepted, long unavailable, long failed, long decided) {}

    public record Check(String what, String expected, String measured, boolean holds) {}
}
