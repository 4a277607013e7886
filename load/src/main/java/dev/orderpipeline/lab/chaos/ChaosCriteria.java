package dev.orderpipeline.lab.chaos;

import static dev.orderpipeline.lab.chaos.ChaosJudge.seconds;
import static dev.orderpipeline.lab.chaos.ChaosJudge.signedSeconds;

import dev.orderpipeline.invariants.CartVerdict;
import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.lab.chaos.ChaosJudge.Findings;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import dev.orderpipeline.lab.chaos.ChaosRun.Freeze;
import dev.orderpipeline.lab.chaos.ChaosRun.PhaseFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.PoisonFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.Takeover;
import dev.orderpipeline.lab.report.Cells;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/** The criteria a chaos run is judged by: {@link #GENERAL} for every run, the others named by {@link FaultKind}. */
final class ChaosCriteria {

    /** In the order the report shows them; the faults' own criteria follow, then {@link #caughtUpAfterEveryFault}. */
    static final List<Function<Findings, Optional<Check>>> GENERAL = List.of(
            ChaosCriteria::faultsCarriedOut,
            ChaosCriteria::acceptedDecided,
            ChaosCriteria::finalWithinDeadline,
            ChaosCriteria::noDoubleDecrement,
            ChaosCriteria::noDrift,
            ChaosCriteria::noOversell,
            ChaosCriteria::noDoublePayment,
            ChaosCriteria::cartsByTheCartRules,
            ChaosCriteria::nothingHeldOnceFinal,
            ChaosCriteria::onePaymentPerCompletedCart,
            ChaosCriteria::oneOutcomePerDecidedCart,
            ChaosCriteria::noCommandLost,
            ChaosCriteria::noRealCommandDeadLettered,
            ChaosCriteria::no500,
            ChaosCriteria::retryAfterOnEvery503,
            ChaosCriteria::retriedOnce);

    private ChaosCriteria() {}

    static Optional<Check> faultsCarriedOut(Findings findings) {
        var faults = findings.run().faults();
        var failed = faults.stream()
                .filter(fault -> fault.failure() != null)
                .map(fault -> fault.name() + ": " + fault.failure())
                .toList();
        var all = "all " + faults.size();
        return check(
                "every fault carried out as planned",
                all,
                failed.isEmpty() ? all : String.join("; ", failed),
                failed.isEmpty());
    }

    static Optional<Check> acceptedDecided(Findings findings) {
        var acceptance = findings.run().acceptance();
        return check(
                "every checkout that got a 202 is decided (COMPLETED or REJECTED)",
                "0 not decided",
                acceptance.notDecided() + " not decided of " + acceptance.accepted() + " accepted"
                        + (acceptance.notDecided() == 0 ? "" : ", e.g. " + acceptance.notDecidedSample()),
                acceptance.notDecided() == 0 && acceptance.accepted() > 0);
    }

    static Optional<Check> finalWithinDeadline(Findings findings) {
        var acceptance = findings.run().acceptance();
        return check(
                "every accepted checkout final within "
                        + ChaosSettings.FINAL_DEADLINE.toSeconds()
                        + " s of the end of the faults (or of its 202, if later)",
                "0 late",
                findings.late() + " late; last decision of a checkout accepted before the end: "
                        + signedSeconds(acceptance.lastDecisionAfterFaults()) + " after it; longest 202 to final "
                        + seconds(acceptance.maxTimeToFinal()) + ", p99 " + seconds(acceptance.p99TimeToFinal()),
                acceptance.notDecided() == 0 && findings.late() == 0);
    }

    static Optional<Check> noDoubleDecrement(Findings findings) {
        var rows = findings.run().idempotency();
        return check(
                "no double decrement: one idempotency row per decided order, with its outcome",
                "rows = decided orders, 0 disagreeing",
                rows.rows() + " rows, " + rows.decidedOrders() + " decided orders, " + rows.disagreeing()
                        + " disagreeing",
                rows.rows() == rows.decidedOrders() && rows.disagreeing() == 0);
    }

    static Optional<Check> noDrift(Findings findings) {
        var soldOut = findings.run().products().stream()
                .filter(book -> book.stockLeft() == 0)
                .count();
        return books(
                findings,
                "stock + units sold = initial stock, per product (drift)",
                "drift 0",
                " (" + soldOut + " sold out, "
                        + Findings.sum(findings.run().products(), InvariantReport::rejectedOrders)
                        + " orders rejected)",
                "drift:");
    }

    static Optional<Check> noOversell(Findings findings) {
        return books(findings, "no oversell", "0 products oversold", "", "oversell:");
    }

    static Optional<Check> noDoublePayment(Findings findings) {
        var books = findings.run().products();
        return books(
                findings,
                "no double payment; one payment per completed order",
                "0 double, 0 without completion, payments = completed",
                " (" + Findings.sum(books, InvariantReport::payments) + " payments for "
                        + Findings.sum(books, InvariantReport::completedOrders) + " completed orders)",
                "double payment:",
                "half-done checkout:",
                "unpaid:");
    }

    /** The invariants module's violations on the products' books that are of one of {@code kinds}. */
    private static Optional<Check> books(
            Findings findings, String what, String expected, String detail, String... kinds) {
        var books = findings.run().products();
        var violations = IntStream.range(0, books.size())
                .boxed()
                .flatMap(index -> books.get(index).violations().stream()
                        .filter(violation -> Stream.of(kinds).anyMatch(violation::startsWith))
                        .map(violation -> "product " + (index + 1) + ": " + violation))
                .toList();
        return check(
                what,
                expected,
                violations.isEmpty()
                        ? expected + " on all " + books.size() + " products" + detail
                        : String.join("; ", violations),
                violations.isEmpty());
    }

    static Optional<Check> cartsByTheCartRules(Findings findings) {
        return carts(
                findings,
                carts -> new Check(
                        "a completed cart sold every line, a rejected cart holds nothing",
                        "0 completed with a line not SOLD, 0 rejected with a line RESERVED or SOLD",
                        carts.completedNotAllSold() + " of " + carts.completed() + " completed with a line not SOLD, "
                                + carts.rejectedHolding() + " of " + carts.rejected() + " rejected holding ("
                                + carts.rejectedOutOfStock() + " out of stock, " + carts.timedOut() + " timed out)",
                        carts.completedNotAllSold() == 0 && carts.rejectedHolding() == 0));
    }

    /** Units held by a final cart are a release that never came. */
    static Optional<Check> nothingHeldOnceFinal(Findings findings) {
        return carts(
                findings,
                carts -> new Check(
                        "nothing held by carts once they are final",
                        "0 units on RESERVED or RELEASING lines of final carts; 0 held at all once every cart is final",
                        carts.heldByFinal() + " units held by final carts, " + carts.held() + " held in all, "
                                + carts.notFinal() + " carts not final",
                        carts.heldByFinal() == 0 && (carts.notFinal() > 0 || carts.held() == 0)));
    }

    static Optional<Check> onePaymentPerCompletedCart(Findings findings) {
        return carts(
                findings,
                carts -> new Check(
                        "one payment per completed cart",
                        "0 double, 0 without completion, payments = completed carts",
                        carts.paidMoreThanOnce() + " double, " + carts.paymentsWithoutCompletion()
                                + " without completion, " + carts.payments() + " payments for " + carts.completed()
                                + " completed",
                        carts.paidMoreThanOnce() == 0
                                && carts.paymentsWithoutCompletion() == 0
                                && carts.payments() == carts.completed()));
    }

    /** The cart's checkout command recorded once, with the cart's outcome. */
    static Optional<Check> oneOutcomePerDecidedCart(Findings findings) {
        return carts(
                findings,
                carts -> new Check(
                        "one idempotency row with an outcome per decided cart, with its status",
                        "rows = decided carts, 0 disagreeing",
                        carts.outcomeRows() + " rows, " + carts.decided() + " decided carts, " + carts.disagreeing()
                                + " disagreeing",
                        carts.outcomeRows() == carts.decided() && carts.disagreeing() == 0));
    }

    /**
     * With carts: every window of {@code kind} met carts mid-saga, so that the cart criteria judged sagas it cut
     * through.
     */
    static Optional<Check> cartsMidSaga(Findings findings, FaultKind kind) {
        var phases = findings.run().phases().stream()
                .filter(phase -> phase.fault() == kind && phase.cartsMidSaga() != null)
                .toList();
        if (phases.isEmpty()) {
            return Optional.empty();
        }
        var measured = phases.stream()
                .map(phase -> phase.name() + ": " + phase.cartsMidSaga())
                .toList();
        return check(
                kind.label() + " hits carts mid-saga",
                "at least 1 cart in flight during each: accepted before its end, decided after its start",
                String.join(", ", measured),
                phases.stream().allMatch(phase -> phase.cartsMidSaga() != null && phase.cartsMidSaga() > 0));
    }

    static Optional<Check> noCommandLost(Findings findings) {
        var topics = findings.run().topics();
        return check(
                "no command lost between the command topics (checkouts, cart checkouts) and the database",
                "0 orders in the topic not decided",
                topics.commandOrdersNotDecided() + " of " + topics.commandOrders() + " orders in the topic not decided",
                topics.commandOrdersNotDecided() == 0);
    }

    static Optional<Check> noRealCommandDeadLettered(Findings findings) {
        var topics = findings.run().topics();
        var perPhase = findings.run().phases().stream()
                .filter(phase -> phase.validDeadLettered() > 0)
                .map(phase -> phase.name() + ": " + phase.validDeadLettered())
                .toList();
        var reasons = topics.untaggedReasons().keySet();
        return check(
                "no real command dead-lettered",
                "0",
                topics.untaggedDeadLetteredAt().size()
                        + (perPhase.isEmpty() ? "" : " [" + String.join(", ", perPhase) + "]")
                        + (reasons.isEmpty() ? "" : " (" + String.join(", ", reasons) + ")"),
                topics.untaggedDeadLetteredAt().isEmpty());
    }

    static Optional<Check> no500(Findings findings) {
        var serverErrors = findings.sumOverPhases(PhaseFigures::serverErrors);
        return check("the API never answers 500 (a 500 is a bug)", "0", Long.toString(serverErrors), serverErrors == 0);
    }

    static Optional<Check> retryAfterOnEvery503(Findings findings) {
        var without = findings.sumOverPhases(PhaseFigures::unavailableWithoutRetryAfter);
        var unavailable = findings.sumOverPhases(phase -> phase.count("503"));
        return check(
                "every 503 carries Retry-After", "0 without", without + " without, of " + unavailable, without == 0);
    }

    static Optional<Check> retriedOnce(Findings findings) {
        var retries = findings.run().retries();
        if (retries.ordersRetried() == 0) {
            return Optional.empty();
        }
        var once = retries.retriedPaidMoreThanOnce() == 0 && retries.retriedProcessedMoreThanOnce() == 0;
        var succeeded = retries.endedUnavailable() == 0 && retries.endedOther() == 0;
        return check(
                "a retried checkout succeeds after recovery, and takes effect once",
                "every retried order ends 202 (or 409: decided from an earlier attempt), none paid or recorded twice",
                retries.ordersRetried() + " orders retried (" + retries.retries() + " retries): "
                        + retries.endedAccepted() + " × 202, " + retries.endedConflict() + " × 409, "
                        + retries.endedUnavailable() + " still 503, " + retries.endedOther() + " other; "
                        + retries.retriedPaidMoreThanOnce() + " paid twice, "
                        + retries.retriedProcessedMoreThanOnce() + " recorded twice",
                once && succeeded);
    }

    /** While the broker is down the API says so with a 503, neither a 500 nor silence. */
    static Optional<Check> unavailableWhileBrokerDown(Findings findings, FaultKind kind) {
        return phase(findings, kind)
                .map(phase -> new Check(
                        "503 (not 500, not silence) while the broker is down",
                        "503 > 0, 5xx other than 503 = 0, 0 timeouts or errors",
                        phase.count("503") + " × 503, " + phase.serverErrors() + " × other 5xx, " + phase.other()
                                + " timeouts or errors",
                        phase.count("503") > 0 && phase.serverErrors() == 0 && phase.other() == 0));
    }

    /** A broker lost: 503 while partitions find new leaders is allowed, a 500 or no answer is not. */
    static Optional<Check> onlyUnavailableWhileABrokerIsLost(Findings findings, FaultKind kind) {
        return phase(findings, kind)
                .map(phase -> new Check(
                        "while a broker is lost, every answer is 202 or 503 (not 500, not silence)",
                        "5xx other than 503 = 0, 0 timeouts or errors",
                        phase.count("202") + " × 202, " + phase.count("503") + " × 503, " + phase.serverErrors()
                                + " × other 5xx, " + phase.other() + " timeouts or errors",
                        phase.serverErrors() == 0 && phase.other() == 0));
    }

    /** Every partition has decisions again after the fault, its longest stall within the catch-up limit. */
    static Optional<Check> decisionsResume(Findings findings, FaultKind kind) {
        var limit = ChaosSettings.CATCH_UP_LIMIT.toSeconds();
        return takeover(findings, kind).map(takeover -> {
            // a partition that never resumed has no longest stall
            var resumed = takeover.partitions().stream()
                    .allMatch(stall -> stall.longestStall() != null && stall.longestStall() <= limit);
            return new Check(
                    kind.label() + ": decisions resume on every partition of the load's products",
                    "longest stall per partition within " + limit + " s",
                    takeover.partitions().stream()
                                    .map(stall -> "p" + stall.partition() + (stall.held() ? "*" : "") + " "
                                            + seconds(stall.longestStall()))
                                    .collect(Collectors.joining(", "))
                            + " (* "
                            + (kind == FaultKind.BROKER_KILL ? "led by the killed broker" : "the frozen worker's")
                            + ")",
                    resumed);
        });
    }

    static Optional<Check> killedBrokerRejoinsTheIsr(Findings findings, FaultKind kind) {
        var limit = ChaosSettings.CATCH_UP_LIMIT.toSeconds();
        return takeover(findings, kind)
                .map(takeover -> new Check(
                        "the killed broker, started again, rejoins the in-sync replicas of every partition it holds",
                        "within " + limit + " s of its start",
                        takeover.rejoinedAfter() == null
                                ? "not within " + limit + " s"
                                : "after " + seconds(takeover.rejoinedAfter()),
                        takeover.rejoinedAfter() != null));
    }

    /** PostgreSQL ended the frozen worker's transaction, and with it its row locks. */
    static Optional<Check> frozenTransactionEnded(Findings findings, FaultKind kind) {
        return freeze(findings, kind)
                .map(freeze -> new Check(
                        "the frozen worker's open transaction is ended by idle_in_transaction_session_timeout",
                        "at least 1 session idle in a transaction when frozen, none left before SIGCONT",
                        freeze.staleTransactions() + " idle in a transaction, none left after "
                                + seconds(freeze.staleTransactionsEndedAfter()),
                        freeze.staleTransactions() > 0 && freeze.staleTransactionsEndedAfter() != null));
    }

    /** Order creation does not queue behind the frozen worker's locks, nor drain the API's pool. */
    static Optional<Check> orderCreationUnblockedWhileFrozen(Findings findings, FaultKind kind) {
        return freeze(findings, kind)
                .map(freeze -> new Check(
                        "orders on the frozen worker's products are created while it is frozen; the API's pool is"
                                + " never exhausted",
                        "all answered 201, each within " + CREATION_BOUND_SECONDS + " s (order-api's"
                                + " statement_timeout), 0 pool timeouts",
                        freeze.created() + " created, " + freeze.failed() + " failed, slowest "
                                + seconds(freeze.longest()) + ", " + freeze.poolTimeouts() + " pool timeouts",
                        freeze.created() > 0
                                && freeze.failed() == 0
                                && freeze.longest() <= CREATION_BOUND_SECONDS
                                && freeze.poolTimeouts() == 0));
    }

    /** order-api's statement_timeout (docs/operate.md, "Database sessions"): the longest an insert may wait. */
    private static final int CREATION_BOUND_SECONDS = 5;

    private static Optional<PhaseFigures> phase(Findings findings, FaultKind kind) {
        return findings.run().phases().stream()
                .filter(phase -> phase.fault() == kind)
                .findFirst();
    }

    private static Optional<Takeover> takeover(Findings findings, FaultKind kind) {
        return findings.run().faults().stream()
                .filter(fault -> fault.kind() == kind && fault.takeover() != null)
                .map(FaultWindow::takeover)
                .findFirst();
    }

    private static Optional<Freeze> freeze(Findings findings, FaultKind kind) {
        return takeover(findings, kind).flatMap(takeover -> Optional.ofNullable(takeover.freeze()));
    }

    static Optional<Check> deadLetteredWithReason(Findings findings, FaultKind kind) {
        var poison = findings.run().poison();
        var sent = Findings.sum(poison, PoisonFigures::sent);
        var found = Findings.sum(poison, PoisonFigures::deadLettered);
        var withoutReason =
                Findings.sum(poison, figures -> figures.reasons().getOrDefault(TopicEvidence.NO_REASON, 0L));
        return check(
                "every poison record in its topic's .dlt with a dlt-reason header",
                sent + " of " + sent + ", 0 without reason",
                found + " of " + sent + ", " + withoutReason + " without reason",
                found == sent && withoutReason == 0);
    }

    static Optional<Check> decoysUntouched(Findings findings, FaultKind kind) {
        var decoy = findings.run().decoy();
        return check(
                "the orders named by poison records are untouched",
                "stock unchanged, all CREATED, 0 payments, 0 idempotency rows",
                decoy == null
                        ? Cells.NOT_AVAILABLE
                        : "stock " + decoy.stockLeft() + " of " + decoy.initialStock() + ", " + decoy.notCreated()
                                + " not CREATED, " + decoy.payments() + " payments, " + decoy.processedRows()
                                + " idempotency rows",
                decoy != null && decoy.untouched());
    }

    static Optional<Check> caughtUpAfterEveryFault(Findings findings) {
        var stuck = findings.run().phases().stream()
                .filter(phase -> phase.fault() != null && phase.caughtUpAfter() == null)
                .map(PhaseFigures::name)
                .toList();
        return check(
                "the pipeline catches up after every fault",
                "every accepted checkout decided after each fault",
                stuck.isEmpty()
                        ? "after all " + findings.run().faults().size()
                        : "not after " + String.join(", ", stuck),
                stuck.isEmpty());
    }

    private static Optional<Check> carts(Findings findings, Function<CartVerdict, Check> judge) {
        return Optional.ofNullable(findings.run().carts()).map(judge);
    }

    static Optional<Check> check(String what, String expected, String measured, boolean holds) {
        return Optional.of(new Check(what, expected, measured, holds));
    }
}
