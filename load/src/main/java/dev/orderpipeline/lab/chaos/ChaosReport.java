package dev.orderpipeline.lab.chaos;

import static dev.orderpipeline.lab.chaos.ChaosJudge.seconds;
import static dev.orderpipeline.lab.chaos.ChaosJudge.signedSeconds;

import dev.orderpipeline.lab.chaos.ChaosRun.ChaosSecond;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import dev.orderpipeline.lab.chaos.ChaosRun.PhaseFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.PoisonFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.ProductBooks;
import dev.orderpipeline.lab.chaos.ChaosRun.WorkerRestart;
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
import java.util.Objects;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
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
        var tables = new ArrayList<>(List.of(verdict(), phases()));
        if (run.faults().stream().anyMatch(fault -> fault.restart() != null)) {
            tables.add(restarts());
        }
        tables.addAll(List.of(faults(), products()));
        if (run.carts() != null) {
            tables.add(carts());
        }
        tables.addAll(List.of(acceptance(), retries()));
        if (!run.poison().isEmpty()) {
            tables.add(poison());
        }
        tables.add(topics());
        if (!run.notes().isEmpty()) {
            tables.add(new Table(
                    "Noticed on the way",
                    List.of("Note"),
                    run.notes().stream().map(List::of).toList(),
                    ""));
        }
        return tables;
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
                Column.of(
                        "Valid commands dead-lettered",
                        phase -> phase.validDeadLettered() == null
                                ? Cells.NOT_AVAILABLE
                                : Long.toString(phase.validDeadLettered())),
                Column.of("202", phase -> Long.toString(phase.count("202"))),
                Column.of("503", phase -> Long.toString(phase.count("503"))),
                Column.of("5xx", phase -> Long.toString(phase.serverErrors())),
                Column.of("409", phase -> Long.toString(phase.count("409"))),
                Column.of("Other", phase -> Long.toString(phase.other())),
                Column.of("Retries", phase -> Long.toString(phase.retries())),
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

    private Table carts() {
        var carts = Objects.requireNonNull(run.carts());
        return new Table(
                "Carts, from the database",
                List.of("Figure", "Value"),
                List.of(
                        List.of("carts placed (2-3 of the hot products, 1 unit each)", Long.toString(carts.placed())),
                        List.of("completed", Long.toString(carts.completed())),
                        List.of("rejected", Long.toString(carts.rejected())),
                        List.of("of those, a line out of stock", Long.toString(carts.rejectedOutOfStock())),
                        List.of("of those, timed out waiting for a reservation", Long.toString(carts.timedOut())),
                        List.of("not final (never checked out, or lost)", Long.toString(carts.notFinal())),
                        List.of("completed with a line not SOLD", Long.toString(carts.completedNotAllSold())),
                        List.of("rejected with a line RESERVED or SOLD", Long.toString(carts.rejectedHolding())),
                        List.of("units held (RESERVED, RELEASING)", Long.toString(carts.held())),
                        List.of("of those, by final carts", Long.toString(carts.heldByFinal())),
                        List.of("payments", Long.toString(carts.payments())),
                        List.of("carts paid twice", Long.toString(carts.paidMoreThanOnce())),
                        List.of("payments of carts not completed", Long.toString(carts.paymentsWithoutCompletion())),
                        List.of("idempotency rows with an outcome", Long.toString(carts.outcomeRows())),
                        List.of("carts whose outcome rows disagree", Long.toString(carts.disagreeing()))),
                "Orders of several products checked out by the reservation saga; the products' books above count"
                        + " their units (sold on SOLD lines, held on RESERVED and RELEASING ones) in the drift.");
    }

    private Table restarts() {
        return Table.of(
                "Worker killed and restarted under its name",
                List.of(
                        Column.<FaultWindow>of("Fault", FaultWindow::name),
                        Column.of("Worker", fault -> restart(fault).worker()),
                        Column.of(
                                "Static member",
                                fault -> Cells.yesNo(restart(fault).staticMember())),
                        Column.of(
                                "Its partitions",
                                fault -> restart(fault).partitions().toString()),
                        Column.of(
                                "Products watched",
                                fault -> Integer.toString(restart(fault).products())),
                        Column.of("Ready after", fault -> seconds(restart(fault).readyAfter())),
                        Column.of(
                                "Offsets committed again after",
                                fault -> seconds(restart(fault).committedAgainAfter())),
                        Column.of(
                                "Decisions resumed after",
                                fault -> seconds(restart(fault).firstDecisionAfter()))),
                run.faults().stream().filter(fault -> fault.restart() != null).toList(),
                "Seconds from the kill. Decisions resumed after: until every product of the load on the killed"
                        + " worker's partitions had a decision committed after the kill (every product of the load"
                        + " when the worker was not a static member, its partitions then unknown).");
    }

    private static WorkerRestart restart(FaultWindow fault) {
        return Objects.requireNonNull(fault.restart());
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
                        Column.<ProductBooks>of(
                                "Product", book -> book.productId().toString().substring(0, 8)),
                        Column.of("Initial", book -> Integer.toString(book.initialStock())),
                        Column.of("Completed", book -> Long.toString(book.completed())),
                        Column.of(
                                "Rejected (no stock)",
                                book -> book.rejected() + " (" + book.rejectedOutOfStock() + ")"),
                        Column.of("Stock left", book -> Integer.toString(book.stockLeft())),
                        Column.of("Drift", book -> Long.toString(book.drift())),
                        Column.of("Oversold", book -> Cells.yesNo(book.oversold())),
                        Column.of("Payments", book -> Long.toString(book.payments())),
                        Column.of("Double payments", book -> Long.toString(book.doublePayments())),
                        Column.of("Decided", book -> Long.toString(book.decided())),
                        Column.of("Idempotency rows", book -> Long.toString(book.processedRows())),
                        Column.of("Not final", book -> Long.toString(book.notFinal()))),
                run.products(),
                "Not final: orders never accepted (the load stopped before their turn, or gave up) and, if any, lost"
                        + " ones; the verdict counts the lost ones among the accepted checkouts.");
    }

    private Table acceptance() {
        var acceptance = run.acceptance();
        return new Table(
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
                                        .collect(Collectors.joining(", ")));
    }

    private Table retries() {
        var retries = run.retries();
        return new Table(
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
                "Up to " + settings.maxAttempts() + " attempts per checkout, the same order each time.");
    }

    private Table poison() {
        return Table.of(
                "Poison records in the dead-letter topics",
                List.of(
                        Column.<PoisonFigures>of("Kind", poison -> poison.kind().label()),
                        Column.of("Topic", poison -> poison.kind().topic()),
                        Column.of("Sent", poison -> Long.toString(poison.sent())),
                        Column.of("Dead-lettered", poison -> Long.toString(poison.deadLettered())),
                        Column.of("Last one after", poison -> seconds(poison.lastDeadLetteredAfter())),
                        Column.of("dlt-reason (ids and numbers masked)", poison -> reasons(poison.reasons()))),
                run.poison(),
                "Counted by the lab-poison header the dead letters keep; last one after: from the start of the"
                        + " injection to the dead letter's timestamp.");
    }

    private Table topics() {
        var topics = run.topics();
        var decoy = run.decoy();
        var topicRows = new ArrayList<List<String>>(List.of(
                List.of("command records keyed by the run's products", Long.toString(topics.commandRecords())),
                List.of(
                        "orders named by valid commands (carts: by cart checkouts)",
                        Long.toString(topics.commandOrders())),
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
        return new Table(
                "Topics",
                List.of("Figure", "Value"),
                topicRows,
                "Results are advisory (a worker killed between its commit and the publish loses them; a redelivery or"
                        + " the replay publishes duplicates); the database is the truth."
                        + (topics.untaggedReasons().isEmpty()
                                ? ""
                                : " Real commands dead-lettered because: " + reasons(topics.untaggedReasons()) + "."));
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
