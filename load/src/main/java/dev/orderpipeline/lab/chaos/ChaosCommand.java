package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.LabCommand;
import dev.orderpipeline.lab.load.OpenLoad;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.LabReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/lab chaos}: the fault-injection experiment. Fields are filled by picocli; their defaults are the run
 * docs/reliability.md reports (every default fault, 30 % carts so that every fault meets sagas in flight).
 */
@Command(
        name = "chaos",
        description =
                "Under a sustained checkout load on a few products of limited stock, a share of them carts, injects"
                        + " the faults one after the other with a recovery after each, then judges the run by the database and"
                        + " the topics.")
public final class ChaosCommand extends LabCommand {

    /** A kill must leave a worker to take over: the experiment runs at least this many. */
    static final int MIN_WORKERS = 2;

    @Option(order = 1, names = "--rate", paramLabel = "PER-SECOND", description = "Checkouts started per second.")
    int rate = 150;

    @Option(
            order = 4,
            names = "--faults",
            paramLabel = "NAME",
            split = ",",
            description = "Faults in order, comma-separated; default: ${DEFAULT-VALUE}. Also: broker-kill (kill -9 of"
                    + " the broker that leads the most command partitions, down for --broker-down seconds, then started"
                    + " again; needs --brokers 3); worker-freeze (SIGSTOP of a worker mid-transaction for"
                    + " --worker-freeze seconds, then SIGCONT).",
            showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER)
    List<String> faults =
            new ArrayList<>(FaultKind.BY_DEFAULT.stream().map(FaultKind::label).toList());

    @Option(order = 5, names = "--worker-kills", paramLabel = "N", description = "kill -9 of a worker, how often.")
    int workerKills = 3;

    @Option(order = 6, names = "--broker-down", paramLabel = "SECONDS", description = "How long the broker stays down.")
    int brokerDownSeconds = 10;

    @Option(
            order = 7,
            names = "--worker-freeze",
            paramLabel = "SECONDS",
            description = "How long worker-freeze keeps a worker stopped (SIGSTOP); longer than its group session, so"
                    + " that the other worker takes its partitions over.")
    int workerFreezeSeconds = 30;

    @Option(order = 8, names = "--poison", paramLabel = "N", description = "Poison records to inject.")
    int poison = 1000;

    @Option(order = 9, names = "--warmup", paramLabel = "SECONDS", description = "Load before the first fault.")
    int warmupSeconds = 20;

    @Option(
            order = 10,
            names = "--recovery",
            paramLabel = "SECONDS",
            description = "Load after each fault at least; then until the pipeline caught up (up to 2 minutes).")
    int recoverySeconds = 15;

    @Option(
            order = 13,
            names = "--max-in-flight",
            paramLabel = "N",
            description = "Requests on the wire at once, first attempts and retries together, as a client's pool of"
                    + " connections: a retry waits for a place; an arrival while N first attempts are in flight is"
                    + " dropped and counted.")
    int maxInFlight = OpenLoad.DEFAULT_MAX_IN_FLIGHT;

    @Option(
            order = 15,
            names = "--cart-share",
            paramLabel = "SHARE",
            description = "Share of the checkouts that are carts of 2-3 of the hot products (0 to 1), checked out by"
                    + " the reservation saga.")
    double cartShare = 0.3;

    /** The stack the lab starts, with at least two workers, so that a killed one leaves the group to the other. */
    @Override
    protected StackTarget open() {
        var target = super.open();
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

    @Override
    protected LabReport run(StackTarget target, Progress progress) {
        var settings = settings();
        var run = new ChaosExperiment(target, settings, progress).run();
        return new ChaosReport(header(target), settings, run);
    }

    /** The options, and what no option sets: 5 products, the database down 15 s and faulted 20 s, a 45 s session. */
    ChaosSettings settings() {
        return new ChaosSettings(
                rate,
                5,
                faults.stream()
                        .map(String::strip)
                        .filter(name -> !name.isEmpty())
                        .map(FaultKind::named)
                        .toList(),
                workerKills,
                Duration.ofSeconds(brokerDownSeconds),
                Duration.ofSeconds(15),
                Duration.ofSeconds(20),
                poison,
                Duration.ofSeconds(warmupSeconds),
                Duration.ofSeconds(recoverySeconds),
                maxInFlight,
                cartShare,
                Duration.ofSeconds(workerFreezeSeconds),
                ChaosSettings.DEFAULT_GROUP_SESSION);
    }
}
