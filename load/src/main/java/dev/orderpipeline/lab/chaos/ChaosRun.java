package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.measure.CheckoutCost;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a chaos run did and found. Times are seconds since the load started. Every figure about outcomes comes from
 * the database or the topics; the answers the load got are only used for what the clients were told (statuses,
 * retries) and for when a checkout was accepted.
 *
 * @param phases the load cut at the start of each fault: before the first, then each fault with its recovery
 * @param decoy the product whose orders the poison records named, which nothing may have changed
 * @param notes what the run noticed on the way (a fault that did not go as planned, bodies of unexpected answers)
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
        @Nullable CartFigures carts,
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

    public boolean holds() {
        return checks.stream().allMatch(Check::holds);
    }

    /**
     * One fault as injected.
     *
     * @param end when it was over: the killed worker ready again, the broker or database answering again, the
     *     replaying worker at the end the topic had when it started, the last poison record acknowledged
     * @param restart {@code worker-kill-restart}: what the restart under the same name cost; null for other faults
     */
    public record FaultWindow(
            FaultKind kind,
            String name,
            double start,
            double end,
            String detail,
            @Nullable String failure,
            @Nullable WorkerRestart restart) {}

    /**
     * A worker killed with SIGKILL and started again at once under its name, seconds from the kill.
     *
     * @param worker the process name, which the launcher passes as its {@code group.instance.id}
     * @param staticMember whether the group had a member with that instance id before the kill; if not, its
     *     partitions were unknown and every product of the load was watched
     * @param firstDecisionAfter until every watched product had a decision committed after the kill: the pause its
     *     checkouts saw; null if one had none within the catch-up limit
     */
    public record WorkerRestart(
            String worker,
            boolean staticMember,
            List<Integer> partitions,
            int products,
            double readyAfter,
            @Nullable Double committedAgainAfter,
            @Nullable Double firstDecisionAfter) {

        public WorkerRestart {
            partitions = List.copyOf(partitions);
        }
    }

    /**
     * The load from the start of a fault to the start of the next (the first phase: up to the first fault).
     *
     * @param firstDecisionAfter seconds from the fault's end to the first decision after it (database)
     * @param caughtUpAfter seconds from the fault's end until every checkout accepted before that end was decided
     * @param longestStall the longest time any product went without a decision while it had an accepted checkout
     *     waiting, within the phase
     * @param validDeadLettered real commands of the run dead-lettered in this phase (their dead letters' timestamps):
     *     must be 0; null in reports written before it was counted per phase
     * @param cartsAccepted of the checkouts first accepted in this phase, the carts; null in reports written before
     *     carts were in the load
     * @param cartsMidSaga carts in flight while the phase's fault lasted (accepted before its end, decided after its
     *     start, or never): the sagas it cut through; null for the first phase and in reports written before carts
     *     were in the load
     * @param cost what a checkout decided in the phase cost the pipeline (its CPU, lock waits and WAL over the
     *     phase, by the checkouts the database decided in it); null when none was decided and in reports written
     *     before it was measured
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
            @Nullable Long validDeadLettered,
            @Nullable Long cartsAccepted,
            @Nullable Long cartsMidSaga,
            @Nullable CheckoutCost cost) {

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

    /**
     * The checkouts the API accepted (202) and what the database says became of them.
     *
     * @param notDecided of those, still not decided at the end: lost checkouts
     * @param lastDecisionAfterFaults seconds from the end of the faults to the decision of the last checkout accepted
     *     before it (negative: all were decided before the faults ended)
     * @param decidedWithoutAccept orders decided although no attempt got a 202 (a 503 or timeout whose command
     *     reached the broker after all)
     */
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

    /**
     * The load's retries.
     *
     * @param endedConflict retried orders whose last attempt got 409: an earlier attempt's command had reached the
     *     broker and been decided
     * @param endedUnavailable retried orders still answered 503 at the last attempt (given up)
     */
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
     * @param drift stock left + units sold - initial stock
     * @param processedDisagreeing idempotency rows whose outcome is not the order's status
     * @param notFinal orders neither COMPLETED nor REJECTED (never accepted, or lost)
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
            long notFinal) {}

    /**
     * One kind of poison record.
     *
     * @param reasons their {@code dlt-reason} headers, ids and numbers masked, counted
     * @param lastDeadLetteredAfter seconds from the injection's start to the last one's dead-letter timestamp
     */
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
     * @param commandRecords records of the command topic keyed by the run's products (poison included)
     * @param commandOrders distinct orders of the run named by valid commands there, and carts of the run named by
     *     cart checkouts on {@code checkout.carts}
     * @param commandOrdersNotDecided of those, not decided in the database: lost commands
     * @param untaggedDeadLetters dead letters keyed by the run's products that are not poison: real commands
     *     dead-lettered
     * @param untaggedDeadLetteredAt when each of them was dead-lettered (the dead letter's timestamp, seconds since
     *     the start), to tell which fault it came with
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
            // absent from reports written before the dead letters were timed
            untaggedDeadLetteredAt = untaggedDeadLetteredAt == null ? List.of() : List.copyOf(untaggedDeadLetteredAt);
        }
    }

    /**
     * The decoy product: its orders are named by poison records and never checked out, so nothing may change it.
     */
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
     * The run's carts (orders of several products, checked out by the reservation saga), from the database.
     *
     * @param rejectedOutOfStock of those, a line refused for want of stock ({@code INSUFFICIENT_STOCK})
     * @param timedOut of those, a reservation that did not come in time ({@code RESERVATION_TIMEOUT})
     * @param completedNotAllSold COMPLETED carts with a line not SOLD (a completion without its stock): must be 0
     * @param rejectedHolding REJECTED carts with a line RESERVED or SOLD (stock kept by a rejected order): must be 0
     * @param held units on RESERVED and RELEASING lines of the carts: once every cart is final, must be 0
     * @param heldByFinal of those, units held by carts that are final: a release that never came
     * @param outcomeRows idempotency rows with an outcome (the carts' checkout commands once decided)
     * @param disagreeing carts whose idempotency rows with an outcome are not one for a decided cart (with its
     *     status) or none for an open one: must be 0
     */
    public record CartFigures(
            long placed,
            long completed,
            long rejected,
            long rejectedOutOfStock,
            long timedOut,
            long notFinal,
            long completedNotAllSold,
            long rejectedHolding,
            long held,
            long heldByFinal,
            long payments,
            long paidMoreThanOnce,
            long paymentsWithoutCompletion,
            long outcomeRows,
            long disagreeing) {

        public long decided() {
            return completed + rejected;
        }
    }

    /**
     * One second of the run.
     *
     * @param failed other answers except 409: 5xx, timeouts, I/O errors
     * @param decided decisions of the run's orders committed in this second (database)
     * @param open accepted checkouts not decided at the end of this second
     */
    public record ChaosSecond(
            int second, long sent, long accepted, long unavailable, long failed, long decided, long open) {}

    /**
     * One criterion a chaos run must meet.
     */
    public record Check(String what, String expected, String measured, boolean holds) {}
}
