package dev.orderpipeline.lab.chaos;

import static dev.orderpipeline.lab.chaos.ChaosJudge.seconds;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What a chaos run found, as the lab's report: the verdict, the faults and recoveries, the poison, the timeline. */
public record ChaosReport(ReportHeader header, ChaosSettings settings, ChaosRun run) implements LabReport {

    private static final int REASONS_SHOWN = 3;

    @Override
    public boolean holds() {
        return run.holds();
    }

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
                        + " after the run; the results topic, advisory, holds %d results flagged duplicate (redeliveries"
                        + " and the replay). %s",
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
                run.topics().duplicateResults(),
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
                        run.poison().isEmpty() ? null : poison(),
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
        var columns = new ArrayList<>(List.<Column<PhaseFigures>>of(
                Column.of("name", PhaseFigures::name),
                Column.of("from", phase -> seconds(phase.from())),
                Column.of("to", phase -> seconds(phase.to())),
                Column.of("first decision after", phase -> seconds(phase.firstDecisionAfter())),
                Column.of("caught up after", phase -> seconds(phase.caughtUpAfter())),
                Column.of("longest stall", phase -> seconds(phase.longestStall())),
                Column.of("max time to final", phase -> seconds(phase.maxTimeToFinal())),
                Column.count("valid dead lettered", PhaseFigures::validDeadLettered)));
        if (run.carts() != null) {
            columns.add(Column.of("carts mid saga", phase -> Cells.integer(phase.cartsMidSaga())));
        }
        columns.add(Column.count("202", phase -> phase.count("202")));
        columns.add(Column.count("503", phase -> phase.count("503")));
        columns.add(Column.count("5xx", PhaseFigures::serverErrors));
        columns.add(Column.count("Other", PhaseFigures::other));
        return Table.of(
                "Faults and recovery",
                columns,
                run.phases(),
                "Seconds since the load started. A phase runs from its fault's start to the next fault's start. After"
                        + " the fault's end: the first decision committed (processed_command) and when every checkout"
                        + " accepted before the end was decided. Longest stall: the longest time a product had an"
                        + " accepted checkout waiting and no decision. Max time to final: the longest 202 to decision"
                        + " of the checkouts accepted in the phase. Valid dead-lettered: real commands of the run in"
                        + " the dead-letter topics, by the dead letter's timestamp (must be 0). Statuses count the"
                        + " requests sent in the phase; Other: timeouts and I/O errors."
                        + (run.carts() == null
                                ? ""
                                : " Carts mid-saga: carts in flight while the fault lasted (accepted before its end,"
                                        + " decided after its start, or never), the sagas it cut through."));
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
                // each fault from its start to its end, labelled short: the kill's number, else the kind
                .withEvents(run.faults().stream()
                        .map(fault -> new Chart.Event(
                                fault.start(),
                                Math.max(fault.start(), fault.end()),
                                fault.kind() == FaultKind.WORKER_KILL
                                        ? fault.name()
                                        : fault.kind().label()))
                        .toList()));
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
