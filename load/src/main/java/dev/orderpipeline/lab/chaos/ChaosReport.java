package dev.orderpipeline.lab.chaos;

import static dev.orderpipeline.lab.chaos.ChaosJudge.seconds;
import static dev.orderpipeline.lab.chaos.ChaosJudge.signedSeconds;

import dev.orderpipeline.lab.chaos.ChaosRun.ChaosSecond;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

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
                                + " The load retries a 503 after its Retry-After. Every outcome is read from the"
                                + " database and the topics after the run. ",
                        settings.rate(),
                        settings.products(),
                        run.faults().stream().map(FaultWindow::name).collect(Collectors.joining(", ")))
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
        var tables = new ArrayList<Table>();
        tables.add(new Table(
                "Verdict",
                List.of("Criterion", "Expected", "Measured", "Holds"),
                run.checks().stream()
                        .map(check ->
                                List.of(check.what(), check.expected(), check.measured(), Cells.yesNo(check.holds())))
                        .toList(),
                "Read from the database (orders, payment, processed_command, product) and the topics after the run,"
                        + " not from what the clients were told."));
        tables.add(new Table(
                "Faults and recovery",
                List.of(
                        "Phase",
                        "From",
                        "Fault",
                        "First decision after",
                        "First 202 after",
                        "Caught up after",
                        "Longest stall",
                        "Valid commands dead-lettered",
                        "202",
                        "503",
                        "5xx",
                        "409",
                        "Other",
                        "Retries",
                        "Max 202 to final"),
                run.phases().stream()
                        .map(phase -> {
                            var window = run.faults().stream()
                                    .filter(fault -> fault.name().equals(phase.name()))
                                    .findFirst();
                            return List.of(
                                    phase.name(),
                                    Cells.decimal(phase.from(), 1),
                                    window.map(fault -> Cells.decimal(fault.start(), 1) + "-"
                                                    + Cells.decimal(fault.end(), 1))
                                            .orElse("-"),
                                    seconds(phase.firstDecisionAfter()),
                                    seconds(phase.firstAcceptAfter()),
                                    phase.fault() == null
                                            ? "-"
                                            : phase.caughtUpAfter() == null ? "never" : seconds(phase.caughtUpAfter()),
                                    seconds(phase.longestStall()),
                                    phase.validDeadLettered() == null
                                            ? Cells.NOT_AVAILABLE
                                            : Long.toString(phase.validDeadLettered()),
                                    Long.toString(phase.count("202")),
                                    Long.toString(phase.count("503")),
                                    Long.toString(phase.serverErrors()),
                                    Long.toString(phase.count("409")),
                                    Long.toString(phase.other()),
                                    Long.toString(phase.retries()),
                                    seconds(phase.maxTimeToFinal()));
                        })
                        .toList(),
                "Seconds since the load started. A phase runs from its fault's start to the next fault's start. After"
                        + " the fault's end: the first decision committed (processed_command), the first 202, and when"
                        + " every checkout accepted before the end was decided. Longest stall: the longest time a"
                        + " product had an accepted checkout waiting and no decision. Valid commands dead-lettered:"
                        + " real commands of the run in checkout.commands.dlt, by the dead letter's timestamp (must be"
                        + " 0). Statuses count the requests sent in the phase; Other: timeouts and I/O errors."));
        var restarts =
                run.faults().stream().filter(fault -> fault.restart() != null).toList();
        if (!restarts.isEmpty()) {
            tables.add(new Table(
                    "Worker killed and restarted under its name",
                    List.of(
                            "Fault",
                            "Worker",
                            "Static member",
                            "Its partitions",
                            "Products watched",
                            "Ready after",
                            "Offsets committed again after",
                            "Decisions resumed after"),
                    restarts.stream()
                            .map(fault -> {
                                var restart = Objects.requireNonNull(fault.restart());
                                return List.of(
                                        fault.name(),
                                        restart.worker(),
                                        Cells.yesNo(restart.staticMember()),
                                        restart.partitions().toString(),
                                        Integer.toString(restart.products()),
                                        seconds(restart.readyAfter()),
                                        seconds(restart.committedAgainAfter()),
                                        seconds(restart.firstDecisionAfter()));
                            })
                            .toList(),
                    "Seconds from the kill. Decisions resumed after: until every product of the load on the killed"
                            + " worker's partitions had a decision committed after the kill (every product of the load"
                            + " when the worker was not a static member, its partitions then unknown)."));
        }
        tables.add(new Table(
                "What each fault did",
                List.of("Fault", "Window", "What happened"),
                run.faults().stream()
                        .map(fault -> List.of(
                                fault.name(),
                                Cells.decimal(fault.start(), 1) + "-" + Cells.decimal(fault.end(), 1) + " s",
                                fault.failure() == null ? fault.detail() : "FAILED: " + fault.failure()))
                        .toList(),
                ""));
        tables.add(new Table(
                "Products, from the database",
                List.of(
                        "Product",
                        "Initial",
                        "Completed",
                        "Rejected (no stock)",
                        "Stock left",
                        "Drift",
                        "Oversold",
                        "Payments",
                        "Double payments",
                        "Decided",
                        "Idempotency rows",
                        "Not final"),
                run.products().stream()
                        .map(book -> List.of(
                                book.productId().toString().substring(0, 8),
                                Integer.toString(book.initialStock()),
                                Long.toString(book.completed()),
                                book.rejected() + " (" + book.rejectedOutOfStock() + ")",
                                Integer.toString(book.stockLeft()),
                                Long.toString(book.drift()),
                                Cells.yesNo(book.oversold()),
                                Long.toString(book.payments()),
                                Long.toString(book.doublePayments()),
                                Long.toString(book.decided()),
                                Long.toString(book.processedRows()),
                                Long.toString(book.notFinal())))
                        .toList(),
                "Not final: orders never accepted (the load stopped before their turn, or gave up) and, if any, lost"
                        + " ones; the verdict counts the lost ones among the accepted checkouts."));
        var acceptance = run.acceptance();
        tables.add(new Table(
                "Accepted checkouts",
                List.of("Figure", "Value"),
                List.of(
                        List.of("checkouts started (first attempts)", Long.toString(acceptance.scheduled())),
                        List.of("arrivals dropped (too many in flight)", Long.toString(acceptance.dropped())),
                        List.of("orders that got a 202", Long.toString(acceptance.accepted())),
                        List.of("of those decided", Long.toString(acceptance.decided())),
                        List.of("of those not decided (lost)", Long.toString(acceptance.notDecided())),
                        List.of("longest 202 to final", seconds(acceptance.maxTimeToFinal())),
                        List.of("p99 202 to final", seconds(acceptance.p99TimeToFinal())),
                        List.of(
                                "last decision of a checkout accepted before the faults ended, after their end",
                                signedSeconds(acceptance.lastDecisionAfterFaults())),
                        List.of(
                                "orders decided without any 202 (a 503 or timeout whose command got through)",
                                Long.toString(acceptance.decidedWithoutAccept()))),
                acceptance.notDecidedSample().isEmpty()
                        ? ""
                        : "Not decided, e.g.: "
                                + acceptance.notDecidedSample().stream()
                                        .map(Object::toString)
                                        .collect(Collectors.joining(", "))));
        var retries = run.retries();
        tables.add(new Table(
                "Client retries",
                List.of("Figure", "Value"),
                List.of(
                        List.of("orders retried", Long.toString(retries.ordersRetried())),
                        List.of("retries sent", Long.toString(retries.retries())),
                        List.of("after a 503 (waiting its Retry-After)", Long.toString(retries.afterUnavailable())),
                        List.of("after no answer (1 s later)", Long.toString(retries.afterNoAnswer())),
                        List.of("last attempt 202", Long.toString(retries.endedAccepted())),
                        List.of(
                                "last attempt 409 (decided from an earlier attempt)",
                                Long.toString(retries.endedConflict())),
                        List.of("last attempt still 503 (gave up)", Long.toString(retries.endedUnavailable())),
                        List.of("last attempt anything else", Long.toString(retries.endedOther())),
                        List.of("retried orders decided", Long.toString(retries.retriedDecided())),
                        List.of("retried orders paid twice", Long.toString(retries.retriedPaidMoreThanOnce())),
                        List.of(
                                "retried orders with two idempotency rows",
                                Long.toString(retries.retriedProcessedMoreThanOnce()))),
                "Up to " + settings.maxAttempts() + " attempts per checkout, the same order each time."));
        if (!run.poison().isEmpty()) {
            tables.add(new Table(
                    "Poison records in checkout.commands.dlt",
                    List.of("Kind", "Sent", "Dead-lettered", "Last one after", "dlt-reason (ids and numbers masked)"),
                    run.poison().stream()
                            .map(poison -> List.of(
                                    poison.kind().label(),
                                    Long.toString(poison.sent()),
                                    Long.toString(poison.deadLettered()),
                                    seconds(poison.lastDeadLetteredAfter()),
                                    reasons(poison.reasons())))
                            .toList(),
                    "Counted by the lab-poison header the dead letters keep; last one after: from the start of the"
                            + " injection to the dead letter's timestamp."));
        }
        var topics = run.topics();
        var decoy = run.decoy();
        var topicRows = new ArrayList<List<String>>(List.of(
                List.of("command records keyed by the run's products", Long.toString(topics.commandRecords())),
                List.of("orders named by valid commands", Long.toString(topics.commandOrders())),
                List.of("of those not decided in the database", Long.toString(topics.commandOrdersNotDecided())),
                List.of("decided orders without a command in the topic", Long.toString(topics.decidedNotInTopic())),
                List.of("results of the run's orders", Long.toString(topics.resultRecords())),
                List.of("orders with a result", Long.toString(topics.resultOrders())),
                List.of("results flagged duplicate", Long.toString(topics.duplicateResults())),
                List.of("dead letters of the run's poison", Long.toString(topics.deadLetters())),
                List.of("real commands dead-lettered", Long.toString(topics.untaggedDeadLetters()))));
        if (decoy != null) {
            topicRows.add(List.of(
                    "decoy product (orders named by poison records)",
                    "stock " + decoy.stockLeft() + " of " + decoy.initialStock() + ", " + decoy.orders() + " orders, "
                            + decoy.notCreated() + " not CREATED, " + decoy.payments() + " payments"));
        }
        tables.add(new Table(
                "Topics",
                List.of("Figure", "Value"),
                topicRows,
                "Results are advisory (a worker killed between its commit and the publish loses them; a redelivery or"
                        + " the replay publishes duplicates); the database is the truth."
                        + (topics.untaggedReasons().isEmpty()
                                ? ""
                                : " Real commands dead-lettered because: " + reasons(topics.untaggedReasons()) + ".")));
        if (!run.notes().isEmpty()) {
            tables.add(new Table(
                    "Noticed on the way",
                    List.of("Note"),
                    run.notes().stream().map(List::of).toList(),
                    ""));
        }
        return tables;
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
    static String reasons(java.util.Map<String, Long> reasons) {
        var sorted = reasons.entrySet().stream()
                .sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
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
