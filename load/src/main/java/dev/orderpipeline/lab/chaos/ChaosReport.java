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
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
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
        var failed = run.checks().stream()
                .filter(check -> !check.holds())
                .map(Check::what)
                .toList();
        var carts = run.carts();
        return String.format(
                Locale.ROOT,
                "A sustained open-model load of %d checkouts/s (the pipeline's checkout) on %d products of limited"
                        + " stock, with these faults one after the other, each followed by a recovery: %s.%s The load"
                        + " retries a 503 after its Retry-After. Every outcome is read from the database and the topics"
                        + " after the run. %s",
                settings.rate(),
                settings.products(),
                run.faults().stream().map(FaultWindow::name).collect(Collectors.joining(", ")),
                carts == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                " %.0f %% of the checkouts are carts of 2-3 of the products (%d placed), checked out"
                                        + " by the reservation saga.",
                                settings.cartShare() * 100,
                                carts.placed()),
                failed.isEmpty()
                        ? "All " + run.checks().size() + " criteria hold."
                        : failed.size() + " of " + run.checks().size() + " criteria do not hold: "
                                + String.join("; ", failed) + ".");
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
        var columns = new ArrayList<>(components(PhaseFigures.class, run.phases()));
        for (var status : List.of("202", "503", "409")) {
            columns.add(Column.count(status, phase -> phase.count(status)));
        }
        columns.add(Column.count("5xx", PhaseFigures::serverErrors));
        columns.add(Column.count("Other", PhaseFigures::other));
        return Table.of(
                "Faults and recovery",
                columns,
                run.phases(),
                "Seconds since the load started. A phase runs from its fault's start to the next fault's start. After"
                        + " the fault's end: the first decision committed (processed_command), the first 202, and when"
                        + " every checkout accepted before the end was decided. Longest stall: the longest time a"
                        + " product had an accepted checkout waiting and no decision. Valid dead-lettered: real"
                        + " commands of the run in checkout.commands.dlt, by the dead letter's timestamp (must be 0)."
                        + " Statuses count the requests sent in the phase; Other: timeouts and I/O errors."
                        + (run.carts() == null
                                ? ""
                                : " Carts mid-saga: carts in flight while the fault lasted (accepted before its end,"
                                        + " decided after its start, or never), the sagas it cut through."));
    }

    /**
     * A column per component of {@code type} that holds a value in some row and is not a list or a map, headed by its
     * name in words; seconds for a {@code Double}.
     */
    static <R extends Record> List<Column<R>> components(Class<R> type, List<R> rows) {
        return Arrays.stream(type.getRecordComponents())
                .filter(component -> !Collection.class.isAssignableFrom(component.getType())
                        && !Map.class.isAssignableFrom(component.getType())
                        && rows.stream().anyMatch(row -> value(component, row) != null))
                .map(component -> Column.<R>of(words(component.getName()), row -> cell(value(component, row))))
                .toList();
    }

    /** A record's figures, one row per component named in words; lists and maps stay in report.json. */
    static Table figures(String title, Record figures, String note) {
        var values = new LinkedHashMap<String, String>();
        for (var component : figures.getClass().getRecordComponents()) {
            var value = value(component, figures);
            if (!(value instanceof Collection<?> || value instanceof Map<?, ?>)) {
                values.put(words(component.getName()), cell(value));
            }
        }
        return Table.figures(title, values, note);
    }

    private static @Nullable Object value(RecordComponent component, Record row) {
        try {
            return component.getAccessor().invoke(row);
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static String words(String name) {
        return name.replaceAll("(?<=[a-z0-9])(?=[A-Z])", " ").toLowerCase(Locale.ROOT);
    }

    private static String cell(@Nullable Object value) {
        return value instanceof Double time ? seconds(time) : value == null ? Cells.NOT_AVAILABLE : value.toString();
    }

    private Table faults() {
        return Table.of(
                "What each fault did",
                List.of(
                        Column.<FaultWindow>of("Fault", FaultWindow::name),
                        Column.of(
                                "Window",
                                fault -> Cells.decimal(fault.start(), 1) + "-" + Cells.decimal(fault.end(), 1) + " s"),
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
                        Column.count("Initial", InvariantReport::initialStock),
                        Column.count("Completed", InvariantReport::completedOrders),
                        Column.count("Rejected", InvariantReport::rejectedOrders),
                        Column.count("Stock left", InvariantReport::stockLeft),
                        Column.count("Drift", InvariantReport::drift),
                        Column.of("Oversold", book -> Cells.yesNo(book.oversold())),
                        Column.count("Payments", InvariantReport::payments),
                        Column.count("Double payments", InvariantReport::doublePayments),
                        Column.count("Not final", InvariantReport::ordersNotFinal)),
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
                        Column.count("Sent", PoisonFigures::sent),
                        Column.count("Dead-lettered", PoisonFigures::deadLettered),
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
        return List.of(new Chart.Lines(
                        "timeline",
                        "Checkouts per second under faults (each fault's window shaded)",
                        "seconds since the load started",
                        "checkouts/s",
                        rates)
                .withEvents(faultWindows()));
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
