package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.invariants.CartVerdict;
import dev.orderpipeline.invariants.IdempotencyRows;
import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.invariants.RepeatedEffects;
import dev.orderpipeline.lab.chaos.ChaosJudge.Checkouts.Checkout;
import dev.orderpipeline.lab.chaos.ChaosJudge.Checkouts.TimeWindow;
import dev.orderpipeline.lab.chaos.ChaosRun.AcceptanceFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.ChaosSecond;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.DecoyFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import dev.orderpipeline.lab.chaos.ChaosRun.PhaseFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.PoisonFigures;
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
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/** Turns what a chaos run collected into its figures and verdicts: pure computation, tested on made-up evidence. */
final class ChaosJudge {

    /** How many lost orders the report names. */
    private static final int SAMPLE = 10;

    private ChaosJudge() {}

    record Evidence(
            ChaosSettings settings,
            List<PreparedOrder> orders,
            List<Attempt> attempts,
            List<FaultWindow> faults,
            double arrivalsEndedAt,
            Map<UUID, Double> decidedAt,
            List<InvariantReport> books,
            IdempotencyRows idempotency,
            RepeatedEffects retriedEffects,
            List<PoisonFigures> poison,
            TopicFigures topics,
            @Nullable DecoyFigures decoy,
            @Nullable CartVerdict carts,
            List<String> notes) {

        double faultsEnd() {
            return faults.stream().mapToDouble(FaultWindow::end).max().orElse(0);
        }

        /** The end of the load: the last answer, or when arrivals ended if later. */
        double loadEnd() {
            return attempts.stream().mapToDouble(Attempt::answeredAt).reduce(arrivalsEndedAt, Math::max);
        }
    }

    /** The run's figures, not judged yet, the run with the checks given, and the checkouts decided past the deadline. */
    record Findings(ChaosRun run, Function<List<Check>, ChaosRun> withChecks, long late) {

        long sumOverPhases(ToLongFunction<PhaseFigures> value) {
            return sum(run.phases(), value);
        }

        static <T> long sum(List<T> values, ToLongFunction<T> value) {
            return values.stream().mapToLong(value).sum();
        }
    }

    static ChaosRun judge(Evidence evidence) {
        var findings = findings(evidence);
        var checks = Stream.of(
                        ChaosCriteria.GENERAL.stream().map(criterion -> criterion.apply(findings)),
                        evidence.settings().faults().stream()
                                .flatMap(kind ->
                                        kind.criteria.stream().map(criterion -> criterion.judge(findings, kind))),
                        Stream.of(ChaosCriteria.caughtUpAfterEveryFault(findings)))
                .flatMap(Function.identity())
                .flatMap(Optional::stream)
                .toList();
        return findings.withChecks().apply(checks);
    }

    static Findings findings(Evidence evidence) {
        var checkouts = new Checkouts(evidence.orders(), evidence.attempts(), evidence.decidedAt());
        var faultsEnd = evidence.faultsEnd();
        var phases = phases(evidence, checkouts);
        var acceptance = acceptance(evidence, checkouts, faultsEnd);
        var retries = retries(evidence);
        var timeline = timeline(evidence, checkouts);
        Function<List<Check>, ChaosRun> withChecks = checks -> new ChaosRun(
                evidence.faults(),
                phases,
                acceptance,
                retries,
                evidence.books(),
                evidence.idempotency(),
                evidence.poison(),
                evidence.topics(),
                evidence.decoy(),
                evidence.carts(),
                timeline,
                checks,
                evidence.notes());
        var deadline = ChaosSettings.FINAL_DEADLINE.toMillis() / 1000.0;
        return new Findings(withChecks.apply(List.of()), withChecks, checkouts.late(faultsEnd, deadline));
    }

    /** Before the first fault, then from each fault's start to the next one's (the last: to the end of the load). */
    private static List<PhaseFigures> phases(Evidence evidence, Checkouts checkouts) {
        var faults = evidence.faults().stream()
                .sorted(Comparator.comparingDouble(FaultWindow::start))
                .toList();
        var phases = new ArrayList<PhaseFigures>();
        var from = 0.0;
        for (var index = 0; index <= faults.size(); index++) {
            var fault = index == 0 ? null : faults.get(index - 1);
            var last = index == faults.size();
            var to = last ? evidence.loadEnd() : faults.get(index).start();
            phases.add(phase(evidence, checkouts, fault, new TimeWindow(from, to, last)));
            from = to;
        }
        return phases;
    }

    private static PhaseFigures phase(
            Evidence evidence, Checkouts checkouts, @Nullable FaultWindow fault, TimeWindow window) {
        var sent = evidence.attempts().stream()
                .filter(attempt -> window.contains(attempt.sentAt()))
                .toList();
        var accepted = checkouts.all().stream()
                .filter(checkout -> checkout.accepted() && window.contains(checkout.acceptedAt()))
                .toList();
        var end = fault == null ? Double.NaN : fault.end();
        var hasCarts = evidence.orders().stream().anyMatch(PreparedOrder::isCart);
        return new PhaseFigures(
                fault == null ? "steady" : fault.name(),
                round(window.from()),
                round(window.to()),
                fault == null ? null : fault.kind(),
                sent.stream().collect(Collectors.groupingBy(Attempt::status, Collectors.counting())),
                sent.stream()
                        .filter(attempt -> attempt.unavailable() && !attempt.retryAfter())
                        .count(),
                fault == null ? null : rounded(checkouts.firstDecisionAfter(end)),
                fault == null ? null : rounded(checkouts.caughtUpAfter(end)),
                rounded(checkouts.longestStall(window, evidence.settings().products())),
                rounded(accepted.stream().mapToDouble(Checkout::toFinal).reduce(Double.NaN, Checkouts::max)),
                evidence.topics().untaggedDeadLetteredAt().stream()
                        .filter(window::contains)
                        .count(),
                hasCarts && fault != null ? midSaga(checkouts, fault) : null);
    }

    /** Carts whose saga was in flight during the fault: accepted before its end, decided after its start (or never). */
    static long midSaga(Checkouts checkouts, FaultWindow fault) {
        return checkouts.all().stream()
                .filter(checkout -> checkout.order().isCart() && checkout.accepted())
                .filter(checkout -> checkout.acceptedAt() <= fault.end() && !(checkout.decidedAt() < fault.start()))
                .count();
    }

    private static AcceptanceFigures acceptance(Evidence evidence, Checkouts checkouts, double faultsEnd) {
        var accepted = checkouts.all().stream().filter(Checkout::accepted).toList();
        var notDecided = accepted.stream()
                .filter(checkout -> !checkout.decided())
                .map(checkout -> checkout.order().orderId())
                .toList();
        var toFinal = accepted.stream()
                .filter(Checkout::decided)
                .mapToDouble(Checkout::toFinal)
                .sorted()
                .toArray();
        var lastBeforeEnd = accepted.stream()
                .filter(checkout -> checkout.decided() && checkout.acceptedAt() <= faultsEnd)
                .mapToDouble(Checkout::decidedAt)
                .reduce(Double.NaN, Checkouts::max);
        return new AcceptanceFigures(
                accepted.size(),
                notDecided.size(),
                notDecided.stream().limit(SAMPLE).toList(),
                toFinal.length == 0 ? null : round(toFinal[toFinal.length - 1]),
                toFinal.length == 0 ? null : round(toFinal[(int) Math.ceil(toFinal.length * 0.99) - 1]),
                rounded(lastBeforeEnd - faultsEnd));
    }

    private static RetryFigures retries(Evidence evidence) {
        var byOrder = evidence.attempts().stream().collect(Collectors.groupingBy(Attempt::order));
        var retried = byOrder.values().stream()
                .filter(attempts -> attempts.size() > 1)
                .map(attempts -> attempts.stream()
                        .sorted(Comparator.comparingInt(Attempt::number))
                        .toList())
                .toList();
        var last = retried.stream().map(List::getLast).toList();
        var accepted = last.stream().filter(Attempt::accepted).count();
        var conflict =
                last.stream().filter(attempt -> "409".equals(attempt.status())).count();
        var unavailable = last.stream().filter(Attempt::unavailable).count();
        return new RetryFigures(
                retried.size(),
                evidence.attempts().size() - byOrder.size(),
                accepted,
                conflict,
                unavailable,
                last.size() - accepted - conflict - unavailable,
                evidence.retriedEffects().paidMoreThanOnce(),
                evidence.retriedEffects().processedMoreThanOnce());
    }

    /** Per second: answers by kind and decisions. */
    private static List<ChaosSecond> timeline(Evidence evidence, Checkouts checkouts) {
        var decisions = checkouts.decisionTimes();
        var last = (int) Math.ceil(evidence.loadEnd());
        if (decisions.length > 0) {
            last = Math.max(last, (int) Math.floor(decisions[decisions.length - 1]));
        }
        var seconds = Math.max(1, last + 1);
        var answered = evidence.attempts();
        var accepted = perSecond(seconds, answered.stream().filter(Attempt::accepted));
        var unavailable = perSecond(seconds, answered.stream().filter(Attempt::unavailable));
        // a 409 is decided from an earlier attempt: not a failure
        var failed = perSecond(
                seconds,
                answered.stream()
                        .filter(attempt ->
                                !attempt.accepted() && !attempt.unavailable() && !"409".equals(attempt.status())));
        var decided = perSecond(seconds, Arrays.stream(decisions).filter(time -> time >= 0));
        var rows = new ArrayList<ChaosSecond>();
        for (var at = 0; at < seconds; at++) {
            rows.add(new ChaosSecond(at, accepted[at], unavailable[at], failed[at], decided[at]));
        }
        return rows;
    }

    private static long[] perSecond(int seconds, Stream<Attempt> answers) {
        return perSecond(seconds, answers.mapToDouble(Attempt::answeredAt));
    }

    /** How many of {@code times} fall in each second; those outside count in the first or the last. */
    private static long[] perSecond(int seconds, DoubleStream times) {
        var counts = new long[seconds];
        times.forEach(at -> counts[(int) Math.min(Math.max(0, Math.floor(at)), seconds - 1)]++);
        return counts;
    }

    /** Seconds rounded for the report; null for NaN (nothing to time). */
    static @Nullable Double rounded(double value) {
        return Double.isNaN(value) ? null : round(value);
    }

    static String seconds(@Nullable Double value) {
        return value == null ? Cells.NOT_AVAILABLE : String.format(Locale.ROOT, "%.1f s", value);
    }

    static String signedSeconds(@Nullable Double value) {
        return value == null ? Cells.NOT_AVAILABLE : String.format(Locale.ROOT, "%+.1f s", value);
    }

    static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    /** Per prepared order, when it was first accepted (202) and decided (database), and what follows from those times. */
    static final class Checkouts {

        record Checkout(PreparedOrder order, double acceptedAt, double decidedAt) {

            boolean accepted() {
                return !Double.isNaN(acceptedAt);
            }

            boolean decided() {
                return !Double.isNaN(decidedAt);
            }

            /** From the 202 to the decision; NaN unless both happened. */
            double toFinal() {
                return Math.max(0, decidedAt - acceptedAt);
            }
        }

        private record Event(double at, boolean decision, boolean endsWait) {}

        private final List<Checkout> all;
        private final double[] decisionTimes;

        Checkouts(List<PreparedOrder> orders, List<Attempt> attempts, Map<UUID, Double> decidedAt) {
            var firstAccept = new HashMap<Integer, Double>();
            attempts.stream()
                    .filter(Attempt::accepted)
                    .forEach(attempt -> firstAccept.merge(attempt.order(), attempt.answeredAt(), Math::min));
            all = IntStream.range(0, orders.size())
                    .mapToObj(index -> new Checkout(
                            orders.get(index),
                            firstAccept.getOrDefault(index, Double.NaN),
                            decidedAt.getOrDefault(orders.get(index).orderId(), Double.NaN)))
                    .toList();
            decisionTimes = decidedAt.values().stream()
                    .mapToDouble(Double::doubleValue)
                    .sorted()
                    .toArray();
        }

        List<Checkout> all() {
            return all;
        }

        double[] decisionTimes() {
            return decisionTimes;
        }

        /** Seconds from {@code time} to the first decision at or after it; NaN if none. */
        double firstDecisionAfter(double time) {
            var found = Arrays.binarySearch(decisionTimes, time);
            var index = found < 0 ? -found - 1 : found;
            return index < decisionTimes.length ? decisionTimes[index] - time : Double.NaN;
        }

        /** Seconds after {@code end} until every checkout accepted before it was decided; NaN if some never was. */
        double caughtUpAfter(double end) {
            var latest = end;
            for (var checkout : all) {
                if (!checkout.accepted() || checkout.acceptedAt() > end) {
                    continue;
                }
                if (!checkout.decided()) {
                    return Double.NaN;
                }
                latest = Math.max(latest, checkout.decidedAt());
            }
            return latest - end;
        }

        /** Accepted checkouts decided more than {@code deadline} seconds after their 202 or {@code faultsEnd}. */
        long late(double faultsEnd, double deadline) {
            return all.stream()
                    .filter(checkout -> checkout.accepted() && checkout.decided())
                    .filter(checkout -> checkout.decidedAt() - Math.max(checkout.acceptedAt(), faultsEnd) > deadline)
                    .count();
        }

        /** The longest time in the window a product had an accepted checkout waiting and no decision; NaN if none. */
        double longestStall(TimeWindow window, int products) {
            var longest = Double.NaN;
            for (var product = 0; product < products; product++) {
                longest = max(longest, productStall(window, product));
            }
            return longest;
        }

        private double productStall(TimeWindow window, int product) {
            var events = new ArrayList<Event>();
            var waiting = 0;
            for (var checkout : all) {
                if (checkout.order().product() != product) {
                    continue;
                }
                var accept = checkout.acceptedAt();
                var decision = checkout.decidedAt();
                if (checkout.decided() && decision >= window.from() && decision <= window.to()) {
                    events.add(new Event(decision, true, checkout.accepted() && accept < decision));
                }
                if (!checkout.accepted() || (checkout.decided() && decision <= accept)) {
                    continue;
                }
                if (accept < window.from()) {
                    waiting += !checkout.decided() || decision > window.from() ? 1 : 0;
                } else if (accept <= window.to()) {
                    events.add(new Event(accept, false, false));
                }
            }
            // at the same instant a decision comes before an accept
            events.sort(
                    Comparator.comparingDouble(Event::at).thenComparing(Event::decision, Comparator.reverseOrder()));
            var longest = Double.NaN;
            var lastProgress = window.from();
            for (var event : events) {
                if (event.decision()) {
                    longest = waiting > 0 ? max(longest, event.at() - lastProgress) : longest;
                    lastProgress = event.at();
                    waiting -= event.endsWait() ? 1 : 0;
                } else {
                    lastProgress = waiting == 0 ? event.at() : lastProgress;
                    waiting++;
                }
            }
            return waiting > 0 ? max(longest, window.to() - lastProgress) : longest;
        }

        static double max(double current, double value) {
            return Double.isNaN(current) ? value : Double.isNaN(value) ? current : Math.max(current, value);
        }

        record TimeWindow(double from, double to, boolean open) {

            boolean contains(double time) {
                return time >= from && (open || time < to);
            }
        }
    }
}
