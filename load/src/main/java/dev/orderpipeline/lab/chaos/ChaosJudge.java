package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.chaos.ChaosRun.AcceptanceFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.ChaosSecond;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.DecoyFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import dev.orderpipeline.lab.chaos.ChaosRun.PhaseFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.PoisonFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.ProductBooks;
import dev.orderpipeline.lab.chaos.ChaosRun.RetryFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.TopicFigures;
import dev.orderpipeline.lab.report.Cells;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Turns what a chaos run collected (the load's attempts, the fault windows, the decisions and books from the
 * database, the counts from the topics) into its figures and the verdict on each criterion a chaos run must meet.
 * Pure computation, so it is tested on made-up evidence.
 */
final class ChaosJudge {

    /** How many lost orders the report names. */
    private static final int SAMPLE = 10;

    private ChaosJudge() {}

    /**
     * Everything a run collected.
     *
     * @param settings the run's settings
     * @param runTag the run's tag
     * @param orders the prepared orders, by index
     * @param products the hot products, by index
     * @param attempts every checkout request of the load
     * @param faults the faults as injected
     * @param scheduled first attempts the load scheduled
     * @param dropped arrivals dropped at the in-flight bound
     * @param arrivalsEndedAt when the load stopped starting checkouts
     * @param decidedAt when each decided order of the run was decided (seconds since the start)
     * @param books each product's books
     * @param retriedEffects orders among the retried ones paid more than once, and with more than one idempotency
     *     row
     * @param poison the poison records by kind
     * @param topics what the topics hold
     * @param decoy the decoy product, if poison was injected
     * @param notes what the run noticed on the way
     */
    record Evidence(
            ChaosSettings settings,
            String runTag,
            List<PreparedOrder> orders,
            List<UUID> products,
            List<Attempt> attempts,
            List<FaultWindow> faults,
            long scheduled,
            long dropped,
            double arrivalsEndedAt,
            Map<UUID, Double> decidedAt,
            List<ProductBooks> books,
            long[] retriedEffects,
            List<PoisonFigures> poison,
            TopicFigures topics,
            @Nullable DecoyFigures decoy,
            List<String> notes) {}

    /** The orders (by index) that were sent more than once. */
    static Set<Integer> retriedOrders(List<Attempt> attempts) {
        var retried = new TreeSet<Integer>();
        attempts.stream().filter(attempt -> attempt.number() > 1).forEach(attempt -> retried.add(attempt.order()));
        return retried;
    }

    static ChaosRun judge(Evidence evidence) {
        var view = new View(evidence);
        var faultsEnd =
                evidence.faults().stream().mapToDouble(FaultWindow::end).max().orElse(0);
        var phases = view.phases();
        var acceptance = view.acceptance(faultsEnd);
        var retries = view.retries();
        var timeline = view.timeline();
        var checks = checks(evidence, view, phases, acceptance, retries, faultsEnd);
        return new ChaosRun(
                evidence.runTag(),
                evidence.faults(),
                evidence.arrivalsEndedAt(),
                faultsEnd,
                phases,
                acceptance,
                retries,
                evidence.books(),
                evidence.poison(),
                evidence.topics(),
                evidence.decoy(),
                timeline,
                checks,
                evidence.notes());
    }

    private static List<Check> checks(
            Evidence evidence,
            View view,
            List<PhaseFigures> phases,
            AcceptanceFigures acceptance,
            RetryFigures retries,
            double faultsEnd) {
        var settings = evidence.settings();
        var deadline = settings.finalDeadline().toSeconds();
        var checks = new ArrayList<Check>();
        var failedFaults = evidence.faults().stream()
                .filter(fault -> fault.failure() != null)
                .map(fault -> fault.name() + ": " + fault.failure())
                .toList();
        checks.add(new Check(
                "every fault carried out as planned",
                "all " + evidence.faults().size(),
                failedFaults.isEmpty() ? "all " + evidence.faults().size() : String.join("; ", failedFaults),
                failedFaults.isEmpty()));
        checks.add(new Check(
                "every checkout that got a 202 is decided (COMPLETED or REJECTED)",
                "0 not decided",
                acceptance.notDecided() + " not decided of " + acceptance.accepted() + " accepted",
                acceptance.notDecided() == 0 && acceptance.accepted() > 0));
        var last = acceptance.lastDecisionAfterFaults();
        var late = view.late(faultsEnd);
        checks.add(new Check(
                "every accepted checkout final within " + deadline + " s of the end of the faults (or of its 202,"
                        + " if later)",
                "0 late",
                late + " late; last decision of a checkout accepted before the end:"
                        + " " + signedSeconds(last) + " after it; longest 202 to final "
                        + seconds(acceptance.maxTimeToFinal()),
                acceptance.notDecided() == 0 && late == 0));
        var processed =
                evidence.books().stream().mapToLong(ProductBooks::processedRows).sum();
        var decided = evidence.books().stream().mapToLong(ProductBooks::decided).sum();
        var disagreeing = evidence.books().stream()
                .mapToLong(ProductBooks::processedDisagreeing)
                .sum();
        checks.add(new Check(
                "no double decrement: one idempotency row per decided order, with its outcome",
                "rows = decided orders, 0 disagreeing",
                processed + " rows, " + decided + " decided orders, " + disagreeing + " disagreeing",
                processed == decided && disagreeing == 0));
        var drifting =
                evidence.books().stream().filter(book -> book.drift() != 0).count();
        checks.add(new Check(
                "stock + units sold = initial stock, per product (drift)",
                "drift 0 for all " + evidence.books().size(),
                drifting == 0
                        ? "drift 0 for all " + evidence.books().size()
                        : drifting + " products drift: "
                                + evidence.books().stream()
                                        .map(book -> Long.toString(book.drift()))
                                        .toList(),
                drifting == 0));
        var oversold = evidence.books().stream().filter(ProductBooks::oversold).count();
        checks.add(new Check("no oversell", "0 products oversold", oversold + " products oversold", oversold == 0));
        var doublePayments = evidence.books().stream()
                .mapToLong(ProductBooks::doublePayments)
                .sum();
        var dangling = evidence.books().stream()
                .mapToLong(ProductBooks::paymentsWithoutCompletion)
                .sum();
        var payments =
                evidence.books().stream().mapToLong(ProductBooks::payments).sum();
        var completed =
                evidence.books().stream().mapToLong(ProductBooks::completed).sum();
        checks.add(new Check(
                "no double payment; one payment per completed order",
                "0 double, 0 without completion, payments = completed",
                doublePayments + " double, " + dangling + " without completion, " + payments + " payments for "
                        + completed + " completed",
                doublePayments == 0 && dangling == 0 && payments == completed));
        checks.add(new Check(
                "no command lost between the command topic and the database",
                "0 orders in the topic not decided",
                evidence.topics().commandOrdersNotDecided() + " of "
                        + evidence.topics().commandOrders() + " orders in the topic not decided",
                evidence.topics().commandOrdersNotDecided() == 0));
        var deadLetteredIn = phases.stream()
                .filter(phase -> phase.validDeadLettered() != null && phase.validDeadLettered() > 0)
                .map(phase -> phase.name() + ": " + phase.validDeadLettered())
                .toList();
        checks.add(new Check(
                "no real command dead-lettered",
                "0",
                evidence.topics().untaggedDeadLetters()
                        + (deadLetteredIn.isEmpty() ? "" : " [" + String.join(", ", deadLetteredIn) + "]")
                        + (evidence.topics().untaggedReasons().isEmpty()
                                ? ""
                                : " ("
                                        + String.join(
                                                ", ",
                                                evidence.topics()
                                                        .untaggedReasons()
                                                        .keySet()) + ")"),
                evidence.topics().untaggedDeadLetters() == 0));
        var serverErrors = phases.stream().mapToLong(PhaseFigures::serverErrors).sum();
        checks.add(new Check(
                "the API never answers 500 (a 500 is a bug)", "0", Long.toString(serverErrors), serverErrors == 0));
        var without = phases.stream()
                .mapToLong(PhaseFigures::unavailableWithoutRetryAfter)
                .sum();
        var unavailable = phases.stream().mapToLong(phase -> phase.count("503")).sum();
        checks.add(new Check(
                "every 503 carries Retry-After", "0 without", without + " without, of " + unavailable, without == 0));
        phases.stream()
                .filter(phase -> phase.fault() == FaultKind.BROKER_RESTART)
                .forEach(phase -> checks.add(new Check(
                        "503 (not 500, not silence) while the broker is down",
                        "503 > 0, 5xx other than 503 = 0",
                        phase.count("503") + " × 503, " + phase.serverErrors() + " × other 5xx, " + phase.other()
                                + " timeouts or errors",
                        phase.count("503") > 0 && phase.serverErrors() == 0)));
        if (retries.ordersRetried() > 0) {
            var once = retries.retriedPaidMoreThanOnce() == 0 && retries.retriedProcessedMoreThanOnce() == 0;
            var succeeded = retries.endedUnavailable() == 0 && retries.endedOther() == 0;
            checks.add(new Check(
                    "a retried checkout succeeds after recovery, and takes effect once",
                    "every retried order ends 202 (or 409: decided from an earlier attempt), none paid or recorded"
                            + " twice",
                    retries.endedAccepted() + " × 202, " + retries.endedConflict() + " × 409, "
                            + retries.endedUnavailable() + " still 503, " + retries.endedOther() + " other; "
                            + retries.retriedPaidMoreThanOnce() + " paid twice, "
                            + retries.retriedProcessedMoreThanOnce() + " recorded twice",
                    once && succeeded));
        }
        if (evidence.settings().faults().contains(FaultKind.POISON)) {
            var sent = evidence.poison().stream().mapToLong(PoisonFigures::sent).sum();
            var found = evidence.poison().stream()
                    .mapToLong(PoisonFigures::deadLettered)
                    .sum();
            var withoutReason = evidence.poison().stream()
                    .mapToLong(figures -> figures.reasons().getOrDefault(TopicEvidence.NO_REASON, 0L))
                    .sum();
            checks.add(new Check(
                    "every poison record in " + "checkout.commands.dlt with a dlt-reason header",
                    sent + " of " + sent + ", 0 without reason",
                    found + " of " + sent + ", " + withoutReason + " without reason",
                    found == sent && withoutReason == 0));
            var decoy = evidence.decoy();
            checks.add(new Check(
                    "the orders named by poison records are untouched",
                    "stock unchanged, all CREATED, 0 payments, 0 idempotency rows",
                    decoy == null
                            ? Cells.NOT_AVAILABLE
                            : "stock " + decoy.stockLeft() + " of " + decoy.initialStock() + ", " + decoy.notCreated()
                                    + " not CREATED, " + decoy.payments() + " payments, " + decoy.processedRows()
                                    + " idempotency rows",
                    decoy != null && decoy.untouched()));
        }
        var stuck = phases.stream()
                .filter(phase -> phase.fault() != null && phase.caughtUpAfter() == null)
                .map(PhaseFigures::name)
                .toList();
        checks.add(new Check(
                "the pipeline catches up after every fault",
                "every accepted checkout decided after each fault",
                stuck.isEmpty() ? "after all " + evidence.faults().size() : "not after " + String.join(", ", stuck),
                stuck.isEmpty()));
        return checks;
    }

    static String seconds(@Nullable Double value) {
        return value == null ? Cells.NOT_AVAILABLE : String.format(Locale.ROOT, "%.1f s", value);
    }

    static String signedSeconds(@Nullable Double value) {
        return value == null ? Cells.NOT_AVAILABLE : String.format(Locale.ROOT, "%+.1f s", value);
    }

    /** The evidence indexed for the computations. */
    private static final class View {

        private final Evidence evidence;
        /** Per order index: the first 202's arrival, NaN if none. */
        private final double[] firstAccept;
        /** Per order index: the decision, NaN if none. */
        private final double[] decided;

        private final double[] decisionTimes;
        private final double[] acceptTimes;

        View(Evidence evidence) {
            this.evidence = evidence;
            var count = evidence.orders().size();
            firstAccept = new double[count];
            decided = new double[count];
            Arrays.fill(firstAccept, Double.NaN);
            Arrays.fill(decided, Double.NaN);
            var accepts = new ArrayList<Double>();
            for (var attempt : evidence.attempts()) {
                if (attempt.accepted()) {
                    accepts.add(attempt.answeredAt());
                    var current = firstAccept[attempt.order()];
                    if (Double.isNaN(current) || attempt.answeredAt() < current) {
                        firstAccept[attempt.order()] = attempt.answeredAt();
                    }
                }
            }
            for (var index = 0; index < count; index++) {
                var at = evidence.decidedAt().get(evidence.orders().get(index).orderId());
                if (at != null) {
                    decided[index] = at;
                }
            }
            decisionTimes = evidence.decidedAt().values().stream()
                    .mapToDouble(Double::doubleValue)
                    .sorted()
                    .toArray();
            acceptTimes =
                    accepts.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        }

        List<PhaseFigures> phases() {
            var faults = evidence.faults().stream()
                    .sorted(Comparator.comparingDouble(FaultWindow::start))
                    .toList();
            var end = end();
            var phases = new ArrayList<PhaseFigures>();
            var from = 0.0;
            for (var index = 0; index <= faults.size(); index++) {
                var fault = index == 0 ? null : faults.get(index - 1);
                var to = index < faults.size() ? faults.get(index).start() : end;
                phases.add(phase(fault == null ? "steady" : fault.name(), fault, from, to, index == faults.size()));
                from = to;
            }
            return phases;
        }

        private PhaseFigures phase(
                String name, @Nullable FaultWindow fault, double from, double to, boolean lastPhase) {
            var statuses = new HashMap<String, Long>();
            long retries = 0;
            long without = 0;
            for (var attempt : evidence.attempts()) {
                if (attempt.sentAt() < from || (!lastPhase && attempt.sentAt() >= to)) {
                    continue;
                }
                statuses.merge(attempt.status(), 1L, Long::sum);
                if (attempt.number() > 1) {
                    retries++;
                }
                if (attempt.unavailable() && !attempt.retryAfter()) {
                    without++;
                }
            }
            long accepted = 0;
            var maxToFinal = Double.NaN;
            for (var index = 0; index < firstAccept.length; index++) {
                var accept = firstAccept[index];
                if (Double.isNaN(accept) || accept < from || (!lastPhase && accept >= to)) {
                    continue;
                }
                accepted++;
                if (!Double.isNaN(decided[index])) {
                    maxToFinal = max(maxToFinal, Math.max(0, decided[index] - accept));
                }
            }
            Double firstDecision = null;
            Double firstAcceptAfter = null;
            Double caughtUp = null;
            if (fault != null) {
                firstDecision = firstAtOrAfter(decisionTimes, fault.end());
                firstAcceptAfter = firstAtOrAfter(acceptTimes, fault.end());
                caughtUp = caughtUpAfter(fault.end());
            }
            return new PhaseFigures(
                    name,
                    round(from),
                    round(to),
                    fault == null ? null : fault.kind(),
                    statuses,
                    retries,
                    without,
                    accepted,
                    firstDecision,
                    firstAcceptAfter,
                    caughtUp,
                    longestStall(from, to),
                    Double.isNaN(maxToFinal) ? null : round(maxToFinal),
                    evidence.topics().untaggedDeadLetteredAt().stream()
                            .filter(at -> at >= from && (lastPhase || at < to))
                            .count());
        }

        /** Seconds after {@code end} until every checkout accepted before it was decided; null if some never was. */
        private @Nullable Double caughtUpAfter(double end) {
            var latest = end;
            for (var index = 0; index < firstAccept.length; index++) {
                if (Double.isNaN(firstAccept[index]) || firstAccept[index] > end) {
                    continue;
                }
                if (Double.isNaN(decided[index])) {
                    return null;
                }
                latest = Math.max(latest, decided[index]);
            }
            return round(latest - end);
        }

        /**
         * The longest time within [from, to] that any product had an accepted checkout waiting and saw no decision:
         * a sweep over each product's accepts and decisions.
         */
        private @Nullable Double longestStall(double from, double to) {
            var longest = Double.NaN;
            for (var product = 0; product < evidence.products().size(); product++) {
                var events = new ArrayList<double[]>();
                var waiting = 0;
                for (var index = 0; index < firstAccept.length; index++) {
                    if (evidence.orders().get(index).product() != product) {
                        continue;
                    }
                    var accept = firstAccept[index];
                    var decision = decided[index];
                    if (!Double.isNaN(decision) && decision >= from && decision <= to) {
                        // type 0: a decision; it ends a wait if the order had been accepted before it
                        var endsWait = !Double.isNaN(accept) && accept < decision ? 1 : 0;
                        events.add(new double[] {decision, 0, endsWait});
                    }
                    if (Double.isNaN(accept) || (!Double.isNaN(decision) && decision <= accept)) {
                        continue;
                    }
                    if (accept < from) {
                        if (Double.isNaN(decision) || decision > from) {
                            waiting++;
                        }
                    } else if (accept <= to) {
                        events.add(new double[] {accept, 1, 0});
                    }
                }
                events.sort(Comparator.comparingDouble((double[] event) -> event[0])
                        .thenComparingDouble(event -> event[1]));
                var lastProgress = from;
                for (var event : events) {
                    if (event[1] == 0) {
                        if (waiting > 0) {
                            longest = max(longest, event[0] - lastProgress);
                        }
                        lastProgress = event[0];
                        waiting -= (int) event[2];
                    } else {
                        if (waiting == 0) {
                            lastProgress = event[0];
                        }
                        waiting++;
                    }
                }
                if (waiting > 0) {
                    longest = max(longest, to - lastProgress);
                }
            }
            return Double.isNaN(longest) ? null : round(longest);
        }

        AcceptanceFigures acceptance(double faultsEnd) {
            long accepted = 0;
            long decidedCount = 0;
            var notDecided = new ArrayList<UUID>();
            long notDecidedCount = 0;
            var toFinal = new ArrayList<Double>();
            var lastBeforeEnd = Double.NaN;
            long decidedWithoutAccept = 0;
            for (var index = 0; index < firstAccept.length; index++) {
                var accept = firstAccept[index];
                var decision = decided[index];
                if (Double.isNaN(accept)) {
                    if (!Double.isNaN(decision)) {
                        decidedWithoutAccept++;
                    }
                    continue;
                }
                accepted++;
                if (Double.isNaN(decision)) {
                    notDecidedCount++;
                    if (notDecided.size() < SAMPLE) {
                        notDecided.add(evidence.orders().get(index).orderId());
                    }
                    continue;
                }
                decidedCount++;
                toFinal.add(Math.max(0, decision - accept));
                if (accept <= faultsEnd) {
                    lastBeforeEnd = max(lastBeforeEnd, decision);
                }
            }
            toFinal.sort(Double::compare);
            return new AcceptanceFigures(
                    evidence.scheduled(),
                    evidence.dropped(),
                    accepted,
                    decidedCount,
                    notDecidedCount,
                    notDecided,
                    toFinal.isEmpty() ? null : round(toFinal.getLast()),
                    toFinal.isEmpty() ? null : round(toFinal.get((int) Math.ceil(toFinal.size() * 0.99) - 1)),
                    Double.isNaN(lastBeforeEnd) ? null : round(lastBeforeEnd - faultsEnd),
                    decidedWithoutAccept);
        }

        /** Accepted checkouts decided later than the deadline after their 202 or the end of the faults. */
        long late(double faultsEnd) {
            var deadline = evidence.settings().finalDeadline().toMillis() / 1000.0;
            long late = 0;
            for (var index = 0; index < firstAccept.length; index++) {
                if (!Double.isNaN(firstAccept[index])
                        && !Double.isNaN(decided[index])
                        && decided[index] - Math.max(firstAccept[index], faultsEnd) > deadline) {
                    late++;
                }
            }
            return late;
        }

        RetryFigures retries() {
            var byOrder = new HashMap<Integer, List<Attempt>>();
            long retries = 0;
            long afterUnavailable = 0;
            long afterNoAnswer = 0;
            for (var attempt : evidence.attempts()) {
                byOrder.computeIfAbsent(attempt.order(), key -> new ArrayList<>())
                        .add(attempt);
            }
            long ordersRetried = 0;
            long endedAccepted = 0;
            long endedConflict = 0;
            long endedUnavailable = 0;
            long endedOther = 0;
            long retriedDecided = 0;
            for (var entry : byOrder.entrySet()) {
                var attempts = entry.getValue();
                if (attempts.size() < 2) {
                    continue;
                }
                attempts.sort(Comparator.comparingInt(Attempt::number));
                ordersRetried++;
                retries += attempts.size() - 1;
                for (var index = 0; index < attempts.size() - 1; index++) {
                    if (attempts.get(index).unavailable()) {
                        afterUnavailable++;
                    } else {
                        afterNoAnswer++;
                    }
                }
                var last = attempts.getLast();
                if (last.accepted()) {
                    endedAccepted++;
                } else if ("409".equals(last.status())) {
                    endedConflict++;
                } else if (last.unavailable()) {
                    endedUnavailable++;
                } else {
                    endedOther++;
                }
                if (!Double.isNaN(decided[entry.getKey()])) {
                    retriedDecided++;
                }
            }
            return new RetryFigures(
                    ordersRetried,
                    retries,
                    afterUnavailable,
                    afterNoAnswer,
                    endedAccepted,
                    endedConflict,
                    endedUnavailable,
                    endedOther,
                    retriedDecided,
                    evidence.retriedEffects()[0],
                    evidence.retriedEffects()[1]);
        }

        List<ChaosSecond> timeline() {
            var last = (int) Math.ceil(end());
            for (var time : decisionTimes) {
                last = Math.max(last, (int) Math.floor(time));
            }
            var seconds = Math.max(1, last + 1);
            var sent = new long[seconds];
            var accepted = new long[seconds];
            var unavailable = new long[seconds];
            var failed = new long[seconds];
            var decisions = new long[seconds];
            var acceptedBy = new long[seconds];
            var acceptedDecidedBy = new long[seconds];
            for (var attempt : evidence.attempts()) {
                sent[clamp(attempt.sentAt(), seconds)]++;
                var answered = clamp(attempt.answeredAt(), seconds);
                if (attempt.accepted()) {
                    accepted[answered]++;
                } else if (attempt.unavailable()) {
                    unavailable[answered]++;
                } else if (!"409".equals(attempt.status())) {
                    failed[answered]++;
                }
            }
            for (var time : decisionTimes) {
                if (time >= 0) {
                    decisions[clamp(time, seconds)]++;
                }
            }
            for (var index = 0; index < firstAccept.length; index++) {
                if (Double.isNaN(firstAccept[index])) {
                    continue;
                }
                acceptedBy[clamp(firstAccept[index], seconds)]++;
                if (!Double.isNaN(decided[index])) {
                    acceptedDecidedBy[clamp(Math.max(firstAccept[index], decided[index]), seconds)]++;
                }
            }
            var rows = new ArrayList<ChaosSecond>();
            long open = 0;
            for (var second = 0; second < seconds; second++) {
                open += acceptedBy[second] - acceptedDecidedBy[second];
                rows.add(new ChaosSecond(
                        second,
                        sent[second],
                        accepted[second],
                        unavailable[second],
                        failed[second],
                        decisions[second],
                        open));
            }
            return rows;
        }

        /** The end of the load: the last answer, or when arrivals ended if later. */
        private double end() {
            var end = evidence.arrivalsEndedAt();
            for (var attempt : evidence.attempts()) {
                end = Math.max(end, attempt.answeredAt());
            }
            return end;
        }

        private static @Nullable Double firstAtOrAfter(double[] sorted, double time) {
            var index = Arrays.binarySearch(sorted, time);
            if (index < 0) {
                index = -index - 1;
            }
            return index < sorted.length ? round(sorted[index] - time) : null;
        }

        private static int clamp(double time, int seconds) {
            return (int) Math.min(Math.max(0, Math.floor(time)), seconds - 1);
        }

        private static double max(double current, double value) {
            return Double.isNaN(current) ? value : Math.max(current, value);
        }
    }

    static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
