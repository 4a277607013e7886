package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.LabCommand;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.LabReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/lab chaos}: the fault-injection experiment. Fields are filled by picocli. */
@Command(
        name = "chaos",
        description = {
            "Under a sustained open-model checkout load on a few products of limited stock (a share of them carts of"
                    + " several products, checked out by the reservation saga), injects faults one after"
                    + " the other, with a recovery after each: kill -9 of a checkout-worker (restarted at once; at"
                    + " least two run, so the group rebalances), kill -9 of one and its restart under the same name"
                    + " (static group membership), a broker restart, a PostgreSQL restart, the database read-only"
                    + " for a while, a storm of lock timeouts, a replay of the command and saga topics from offset 0 by"
                    + " a fresh consumer group, and poison records on the command, cart and reservation topics.",
            "Then judges the run by the database and the topics: every accepted checkout final within the deadline,"
                    + " no double decrement or payment, no oversell, drift 0 (units held by carts counted), the cart rules, every poison record dead-lettered with"
                    + " its reason, 503 with Retry-After and never 500 while a dependency is down, and the time to"
                    + " resume after each fault."
        })
public final class ChaosCommand extends LabCommand {

    /** A kill must leave a worker to take over: the experiment runs at least this many. */
    static final int MIN_WORKERS = 2;

    private final ChaosSettings defaults = ChaosSettings.defaults();

    @Option(order = 1, names = "--rate", paramLabel = "PER-SECOND", description = "Checkouts started per second.")
    int rate = defaults.rate();

    @Option(order = 2, names = "--products", paramLabel = "N", description = "Hot products the checkouts go to.")
    int products = defaults.products();

    @Option(
            order = 3,
            names = "--stock",
            paramLabel = "N",
            description = "Units of each product; default: 40 %% to 88 %% of each product's planned checkouts, so"
                    + " products sell out in different phases.",
            showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER)
    @Nullable
    Integer stock;

    @Option(
            order = 4,
            names = "--faults",
            paramLabel = "NAME",
            split = ",",
            description = "Faults in order, comma-separated; default: worker-kill,worker-kill-restart,broker-restart,"
                    + "database-restart,database-read-only,lock-timeout-storm,replay,poison. Also:"
                    + " broker-kill (kill -9 of the broker that leads the most command"
                    + " partitions, down for --broker-down seconds, then started again; needs --brokers 3);"
                    + " worker-freeze (SIGSTOP of a worker mid-transaction for --worker-freeze seconds, then SIGCONT).",
            showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER)
    List<String> faults =
            new ArrayList<>(defaults.faults().stream().map(FaultKind::label).toList());

    @Option(order = 5, names = "--worker-kills", paramLabel = "N", description = "kill -9 of a worker, how often.")
    int workerKills = defaults.workerKills();

    @Option(order = 6, names = "--broker-down", paramLabel = "SECONDS", description = "How long the broker stays down.")
    int brokerDownSeconds = (int) defaults.brokerDown().toSeconds();

    @Option(
            order = 7,
            names = "--database-down",
            paramLabel = "SECONDS",
            description = "How long PostgreSQL stays down.")
    int databaseDownSeconds = (int) defaults.databaseDown().toSeconds();

    @Option(
            order = 7,
            names = "--worker-freeze",
            paramLabel = "SECONDS",
            description = "How long worker-freeze keeps a worker stopped (SIGSTOP); longer than its group session, so"
                    + " that the other worker takes its partitions over.")
    int workerFreezeSeconds = (int) defaults.workerFreeze().toSeconds();

    @Option(
            order = 7,
            names = "--database-fault",
            paramLabel = "SECONDS",
            description = "How long the database stays read-only (database-read-only) and the lock-timeout storm"
                    + " lasts (lock-timeout-storm).")
    int databaseFaultSeconds = (int) defaults.databaseFault().toSeconds();

    @Option(order = 8, names = "--poison", paramLabel = "N", description = "Poison records to inject.")
    int poison = defaults.poisonRecords();

    @Option(order = 9, names = "--warmup", paramLabel = "SECONDS", description = "Load before the first fault.")
    int warmupSeconds = (int) defaults.warmup().toSeconds();

    @Option(
            order = 10,
            names = "--recovery",
            paramLabel = "SECONDS",
            description =
                    "Load after each fault at least; then until the pipeline caught up (up to" + " --catch-up-limit).")
    int recoverySeconds = (int) defaults.recovery().toSeconds();

    @Option(
            order = 11,
            names = "--catch-up-limit",
            paramLabel = "SECONDS",
            description = "The longest a recovery waits for the pipeline to catch up.")
    int catchUpLimitSeconds = (int) defaults.catchUpLimit().toSeconds();

    @Option(
            order = 12,
            names = "--final-deadline",
            paramLabel = "SECONDS",
            description = "Every accepted checkout must be final this long after the end of the faults.")
    int finalDeadlineSeconds = (int) defaults.finalDeadline().toSeconds();

    @Option(
            order = 13,
            names = "--max-in-flight",
            paramLabel = "N",
            description = "Requests on the wire at once, first attempts and retries together, as a client's pool of"
                    + " connections: a retry waits for a place; an arrival while N first attempts are in flight is"
                    + " dropped and counted.")
    int maxInFlight = defaults.maxInFlight();

    @Option(
            order = 14,
            names = "--max-attempts",
            paramLabel = "N",
            description = "Attempts per checkout when the API answers 503 (after its Retry-After) or not at all.")
    int maxAttempts = defaults.maxAttempts();

    @Option(
            order = 15,
            names = "--cart-share",
            paramLabel = "SHARE",
            description = "Share of the checkouts that are carts of 2-3 of the hot products (0 to 1), checked out by"
                    + " the reservation saga.")
    double cartShare = defaults.cartShare();

    /** The stack the lab starts, with at least two workers, so that a killed one leaves the group to the other. */
    @Override
    protected StackTarget open() {
        var target = targetOptions.open();
        try {
            while (target.stack().workers().size() < MIN_WORKERS) {
                target.stack().addWorker();
            }
            return target;
        } catch (RuntimeException ex) {
            target.close();
            throw ex;
        }
    }

    /** The experiment reads the results topic itself after the run. */
    @Override
    protected boolean listensToResults() {
        return false;
    }

    @Override
    protected LabReport run(StackTarget target, Progress progress, @Nullable ResultsListener results) {
        var settings = settings();
        var requestTimeout = Duration.ofSeconds(targetOptions.requestTimeoutSeconds());
        var run = new ChaosExperiment(target, settings, progress, requestTimeout).run();
        return new ChaosReport(header(target), settings, run);
    }

    ChaosSettings settings() {
        return new ChaosSettings(
                rate,
                products,
                stock,
                faults.stream()
                        .map(String::strip)
                        .filter(name -> !name.isEmpty())
                        .map(FaultKind::named)
                        .toList(),
                workerKills,
                Duration.ofSeconds(brokerDownSeconds),
                Duration.ofSeconds(databaseDownSeconds),
                Duration.ofSeconds(databaseFaultSeconds),
                poison,
                Duration.ofSeconds(warmupSeconds),
                Duration.ofSeconds(recoverySeconds),
                Duration.ofSeconds(catchUpLimitSeconds),
                Duration.ofSeconds(finalDeadlineSeconds),
                maxInFlight,
                maxAttempts,
                defaults.replayLimit(),
                cartShare,
                Duration.ofSeconds(workerFreezeSeconds));
    }
}
