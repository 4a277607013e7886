package dev.orderpipeline.lab.chaos;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

/** Per prepared order, when it was first accepted (202) and decided (database), and what follows from those times. */
final class Checkouts {

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
    private final double[] acceptTimes;

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
        acceptTimes = attempts.stream()
                .filter(Attempt::accepted)
                .mapToDouble(Attempt::answeredAt)
                .sorted()
                .toArray();
    }

    List<Checkout> all() {
        return all;
    }

    double[] decisionTimes() {
        return decisionTimes;
    }

    double firstDecisionAfter(double time) {
        return firstAtOrAfter(decisionTimes, time);
    }

    double firstAcceptAfter(double time) {
        return firstAtOrAfter(acceptTimes, time);
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
        events.sort(Comparator.comparingDouble(Event::at).thenComparing(Event::decision, Comparator.reverseOrder()));
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

    private static double firstAtOrAfter(double[] sorted, double time) {
        var found = Arrays.binarySearch(sorted, time);
        var index = found < 0 ? -found - 1 : found;
        return index < sorted.length ? sorted[index] - time : Double.NaN;
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
