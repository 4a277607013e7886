package dev.orderpipeline.lab.chaos;

import static dev.orderpipeline.lab.chaos.ChaosJudge.seconds;

import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.lab.chaos.ChaosRun.ChaosSecond;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import dev.orderpipeline.lab.chaos.ChaosRun.PhaseFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.PoisonFigures;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.Column;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/** What a chaos run found, as the lab's report: the verdict, the faults and recoveries, the books, the timeline. */
public record ChaosReport(ReportHeader header, ChaosSettings settings, ChaosRun run) implements LabReport {

    private static final int REASONS_SHOWN = 3;

    @Override
    public String summary() {
        var failed = run.checks().stream().filter(check -> !check.holds()).count();
        return String.format(
                        Locale.ROOT,
                        "A sustained open-model load of %d checkouts/s (the pipeline's checkout) on %d products of limited"
                                + " stock, with these faults one after the other, each followed by a recovery: %s."
                                + "%s The load retries a 503 after its Retry-After. Every outcome is read from the"
                                + " database and the topics after the run. ",
                        settings.rate(),
                        settings.products(),
                        run.faults().stream().map(FaultWindow::name).collect(Collectors.joining(", ")),
                        run.carts() == null
                                ? ""
                                : String.format(
                                        Locale.ROOT,
                                        " %.0f %% of the checkouts are carts of 2-3 of the products (%d placed),"
                                                + " checked out by the reservation saga.",
                                        settings.cartShare() * 100,
                                        Objects.requireNonNull(run.carts()).placed()))
                + (failed == 0
                        ? "All " + run.checks().size() + " criteria hold."
                        : failed + " of " + run.checks().size() + " criteria do not hold: "
                                + run.checks().stream()
                                        .filter(check -> !check.holds())
                                        .map(ChaosRun.Check::what)
                                        .collect(Collectors.joining("; "))
                                + ".");
    }

    @Override
    public List<Table> tables() {
        return Stream.of(
                        verdict(),
                        phases(),
                        faults(),
                        products(),
                        run.carts() == null
                                ? null
                                : figures(
                                        "Carts, from the database",
                                        Objects.requireNonNull(run.carts()),
                                        "Orders of 2-3 of the hot products, 1 unit each, checked out by the"
                                                + " reservation saga; the products' books count their units in the"
                                                + " drift."),
                        acceptance(),
                        figures(
                                "Client retries",
                                run.retries(),
                                "Up to " + settings.maxAttempts() + " attempts per checkout, the same order each time;"
                                        + " ended: the last attempt's answer (conflict: a 409, decided from an earlier"
                                        + " attempt); retried decided: decided, or refused sold out."),
                        run.poison().isEmpty() ? null : poison(),
                        topics(),
                        run.decoy() == null
                                ? null
                                : figures(
                                        "Decoy product (its orders named by poison records)",
                                        Objects.requireNonNull(run.decoy()),
                                        ""),
                        run.notes().isEmpty()
                                ? null
                                : new Table(
                                        "Noticed on the way",
                                        List.of("Note"),
                                        run.notes().stream().map(List::of).toList(),
                                        ""))
                .filter(Objects::nonNull)
                .toList();
    }

    private Table verdict() {
        return Table.of(
                "Verdict",
                List.of(
                        Column.<Check>of("Criterion", Check::what),
                        Column.of("Expected", Check::expected),
                        Column.of("Measured", Check::measured),
                        Column.of("Holds", check -> Cells.yesNo(check.holds()))),
                run.checks(),
                "Read from the database (orders, payment, processed_command, product) and the topics after the run,"
                        + " not from what the clients were told.");
    }

    private Table phases() {
        var columns = new ArrayList<Column<PhaseFigures>>(List.of(
                Column.<PhaseFigures>of("Phase", PhaseFigures::name),
                Column.of("From", phase -> Cells.decimal(phase.from(), 1)),
                Column.of(
                        "Fault",
                        phase -> run.faults().stream()
                                .filter(fault -> fault.name().equals(phase.name()))
                                .findFirst()
                                .map(fault -> window(fault, ""))
                                .orElse("-")),
                Column.of("First decision after", phase -> seconds(phase.firstDecisionAfter())),
                Column.of("First 202 after", phase -> seconds(phase.firstAcceptAfter())),
                Column.of(
                        "Caught up after",
                        phase -> phase.fault() == null
                                ? "-"
                                : phase.caughtUpAfter() == null ? "never" : seconds(phase.caughtUpAfter())),
                Column.of("Longest stall", phase -> seconds(phase.longestStall())),
                Column.of("Valid commands dead-lettered", phase -> Long.toString(phase.validDeadLettered())),
                count("202", phase -> phase.count("202")),
                count("503", phase -> phase.count("503")),
                count("5xx", PhaseFigures::serverErrors),
                count("409", phase -> phase.count("409")),
                count("Other", PhaseFigures::other),
                count("Retries", PhaseFigures::retries),
                Column.of("Max 202 to final", phase -> seconds(phase.maxTimeToFinal()))));
        if (run.carts() != null) {
            columns.add(Column.of("Carts accepted", phase -> count(phase.cartsAccepted())));
            columns.add(Column.of("Carts mid-saga at the fault", phase -> count(phase.cartsMidSaga())));
        }
        return Table.of(
                "Faults and recovery",
                columns,
                run.phases(),
                "Seconds since the load started. A phase runs from its fault's start to the next fault's start. After"
                        + " the fault's end: the first decision committed (processed_command), the first 202, and when"
                        + " every checkout accepted before the end was decided. Longest stall: the longest time a"
                        + " product had an accepted checkout waiting and no decision. Valid commands dead-lettered:"
                        + " real commands of the run in checkout.commands.dlt, by the dead letter's timestamp (must be"
                        + " 0). Statuses count the requests sent in the phase; Other: timeouts and I/O errors."
                        + (run.carts() == null
                                ? ""
                                : " Carts mid-saga at the fault: carts in flight while the fault lasted (accepted before"
                                        + " its end, decided after its start, or never), the sagas it cut through."));
    }

    private static String count(@Nullable Long value) {
        return value == null ? "-" : Long.toString(value);
    }

    /**
     * A record's figures, one row per component named in words; lists and maps (samples, times, reasons) stay in
     * report.json.
     */
    static Table figures(String title, Record figures, String note) {
        var values = new LinkedHashMap<String, String>();
        for (var component : figures.getClass().getRecordComponents()) {
            Object value;
            try {
                value = component.getAccessor().invoke(figures);
            } catch (ReflectiveOperationException ex) {
                throw new IllegalStateException(ex);
            }
            if (!(value instanceof Collection<?> || value instanceof Map<?, ?>)) {
                var name = component
                        .getName()
                        .replaceAll("(?<=[a-z0-9])(?=[A-Z])", " ")
                        .toLowerCase(Locale.ROOT);
                values.put(name, value instanceof Double time ? seconds(time) : String.valueOf(value));
            }
        }
        return Table.figures(title, values, note);
    }

    private static <T> Column<T> count(String heading, ToLongFunction<T> value) {
        return Column.of(heading, row -> Long.toString(value.applyAsLong(row)));
    }

    private static String window(FaultWindow fault, String unit) {
        return Cells.decimal(fault.start(), 1) + "-" + Cells.decimal(fault.end(), 1) + unit;
    }

    private Table faults() {
        return Table.of(
                "What each fault did",
                List.of(
                        Column.<FaultWindow>of("Fault", FaultWindow::name),
                        Column.of("Window", fault -> window(fault, " s")),
                        Column.of(
                                "What happened",
                                fault -> fault.failure() == null ? fault.detail() : "FAILED: " + fault.failure())),
                run.faults(),
                "");
    }

    private Table products() {
        return Table.of(
                "Products, from the database",
                List.of(
                        Column.<InvariantReport>of(
                                "Product", book -> book.productId().toString().substring(0, 8)),
                        count("Initial", InvariantReport::initialStock),
                        count("Completed", InvariantReport::completedOrders),
                        count("Rejected", InvariantReport::rejectedOrders),
                        count("Stock left", InvariantReport::stockLeft),
                        count("Drift", InvariantReport::drift),
                        Column.of("Oversold", book -> Cells.yesNo(book.oversold())),
                        count("Payments", InvariantReport::payments),
                        count("Double payments", InvariantReport::doublePayments),
                        count("Not final", InvariantReport::ordersNotFinal)),
                run.products(),
                "Not final: orders never accepted (the load stopped before their turn, or gave up) and, if any, lost"
                        + " ones; the verdict counts the lost ones among the accepted checkouts.");
    }

    private Table acceptance() {
        var sample = run.acceptance().notDecidedSample();
        return figures(
                "Accepted checkouts",
                run.acceptance(),
                "Accepted: orders that got a 202; decided without accept: a 503 or a timeout whose command got through."
                        + (sample.isEmpty() ? "" : " Not decided, e.g.: " + sample));
    }

    private Table poison() {
        return Table.of(
                "Poison records in the dead-letter topics",
                List.of(
                        Column.<PoisonFigures>of("Kind", poison -> poison.kind().label()),
                        Column.of("Topic", poison -> poison.kind().topic()),
                        count("Sent", PoisonFigures::sent),
                        count("Dead-lettered", PoisonFigures::deadLettered),
                        Column.of("Last one after", poison -> seconds(poison.lastDeadLetteredAfter())),
                        Column.of("dlt-reason (ids and numbers masked)", poison -> reasons(poison.reasons()))),
                run.poison(),
                "Counted by the lab-poison header the dead letters keep; last one after: from the start of the"
                        + " injection to the dead letter's timestamp.");
    }

    private Table topics() {
        var reasons = run.topics().untaggedReasons();
        return figures(
                "Topics",
                run.topics(),
                "Untagged dead letters: real commands of the run dead-lettered. Results are advisory (a worker killed between its commit and the publish loses them; a redelivery or"
                        + " the replay publishes duplicates); the database is the truth."
                        + (reasons.isEmpty() ? "" : " Real commands dead-lettered because: " + reasons(reasons) + "."));
    }

    @Override
    public List<Chart> charts() {
        var rates = new LinkedHashMap<String, List<Chart.Point>>();
        rates.put("accepted (202/s)", series(ChaosSecond::accepted));
        rates.put("decided (/s, database)", series(ChaosSecond::decided));
        rates.put("503/s", series(ChaosSecond::unavailable));
        rates.put("5xx, timeouts, errors /s", series(ChaosSecond::failed));
        var open = new LinkedHashMap<String, List<Chart.Point>>();
        open.put("accepted, not yet decided", series(ChaosSecond::open));
        var faults = faultWindows();
        return List.of(
                new Chart.Lines(
                                "timeline",
                                "Checkouts per second under faults (each fault's window shaded)",
                                "seconds since the load started",
                                "checkouts/s",
                                rates)
                        .withEvents(faults),
                new Chart.Lines(
                                "open-checkouts",
                                "Accepted checkouts waiting for their decision",
                                "seconds since the load started",
                                "checkouts",
                                open)
                        .withEvents(faults));
    }

    /** Each fault from its start to its end, labelled short: the kill's number, else the kind. */
    List<Chart.Event> faultWindows() {
        return run.faults().stream()
                .map(fault -> new Chart.Event(
                        fault.start(),
                        Math.max(fault.start(), fault.end()),
                        fault.kind() == FaultKind.WORKER_KILL
                                ? fault.name()
                                : fault.kind().label()))
                .toList();
    }

    /** The most frequent reasons, and how many other variants there were (report.json has them all). */
    static String reasons(Map<String, Long> reasons) {
        var sorted = reasons.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .toList();
        var shown = sorted.stream()
                .limit(REASONS_SHOWN)
                .map(entry -> entry.getValue() + " × " + entry.getKey())
                .collect(Collectors.joining(" | "));
        return sorted.size() <= REASONS_SHOWN
                ? shown
                : shown + " | " + (sorted.size() - REASONS_SHOWN) + " more variants";
    }

    private List<Chart.Point> series(ToLongFunction<ChaosSecond> value) {
        return run.timeline().stream()
                .map(second -> new Chart.Point(second.second(), value.applyAsLong(second)))
                .toList();
    }
}
