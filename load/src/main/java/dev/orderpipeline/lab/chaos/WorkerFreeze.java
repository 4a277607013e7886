package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.lab.chaos.ChaosRun.Creations;
import dev.orderpipeline.lab.chaos.ChaosRun.Takeover;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import dev.orderpipeline.lab.pipeline.ApiClient;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * A worker frozen (SIGSTOP) mid-transaction past its session, then SIGCONT: the other takes over, PostgreSQL ends the
 * idle transaction.
 */
final class WorkerFreeze {

    /** Tries at catching the worker with a transaction open: 15 missed every time in one run of the suite. */
    private static final int ATTEMPTS = 40;

    /** A transaction idle this long is the frozen worker's: the apps' take milliseconds. */
    private static final Duration SEEN_STALE = Duration.ofMillis(1_300);

    private static final String POOL_TIMEOUTS = "hikaricp_connections_timeout_total";

    private WorkerFreeze() {}

    static Done freezeMidTransaction(FaultRun run, int number, double start) {
        var workers = run.mainWorkers();
        if (workers.size() < 2) {
            throw new IllegalStateException("worker-freeze needs a second worker to take over");
        }
        var victim = WorkerKills.busiest(run, workers);
        var worker = workers.get(victim.worker());
        try (var http = ApiClient.newHttpClient()) {
            var api = ApiClient.of(run.stack().api(), http, Duration.ofSeconds(30));
            var poolTimeoutsBefore = poolTimeouts(api);
            var attempt = 0;
            long stale = 0;
            long frozenAtMillis;
            double frozen;
            do {
                if (attempt > 0) {
                    signal(worker, "CONT");
                    // resumed, it takes up what piled up while it was frozen: stopped again at a random moment of
                    // that, each try lands on another phase of its poll
                    FaultRun.pause(Duration.ofMillis(ThreadLocalRandom.current().nextLong(20, 300)));
                }
                attempt++;
                frozenAtMillis = System.currentTimeMillis();
                frozen = run.clock().now();
                signal(worker, "STOP");
                FaultRun.pause(SEEN_STALE);
                stale = run.database().staleTransactions();
            } while (stale == 0 && attempt < ATTEMPTS);
            var whileFrozen = whileFrozen(run, api, victim, frozen);
            signal(worker, "CONT");
            var resumedAtMillis = System.currentTimeMillis();
            var resumed = run.clock().now();
            var stalls = PartitionStalls.measure(run, victim.partitions(), frozenAtMillis, resumedAtMillis);
            // resumed, it notices its connection and its partitions gone: it must still be running afterwards
            FaultRun.pause(Duration.ofSeconds(2));
            var creations = new Creations(
                    whileFrozen.sent(),
                    whileFrozen.failed(),
                    whileFrozen.longest(),
                    poolTimeouts(api) - poolTimeoutsBefore);
            var takeover = new Takeover(
                    worker.name() + " (partitions " + victim.partitions() + ")",
                    stalls,
                    null,
                    stale,
                    whileFrozen.staleEndedAfter(),
                    creations);
            var detail = String.format(
                    Locale.ROOT,
                    "SIGSTOP to %s (pid %d, partitions %s holding %d of the load's %d products) with %d sessions idle in"
                            + " a transaction (caught on try %d); frozen %.1f s, then SIGCONT; %s",
                    worker.name(),
                    worker.pid(),
                    victim.partitions(),
                    victim.products().size(),
                    run.products().size(),
                    stale,
                    attempt,
                    resumed - frozen,
                    worker.isAlive() ? "alive after it" : "it died after it");
            return new Done(
                    run.clock().now(),
                    detail,
                    worker.isAlive() ? null : worker.name() + " died after SIGCONT",
                    takeover);
        } finally {
            if (worker.isAlive()) {
                signal(worker, "CONT");
            }
        }
    }

    private record WhileFrozen(
            int sent, int failed, double longest, @Nullable Double staleEndedAfter) {}

    /** One order after the other on the victim's products, timed, and the stale sessions watched until none is left. */
    private static WhileFrozen whileFrozen(FaultRun run, ApiClient api, WorkerKills.Victim victim, double frozen) {
        var products = victim.products().isEmpty() ? run.products() : victim.products();
        var until = frozen + run.settings().workerFreeze().toMillis() / 1000.0;
        var sent = 0;
        var failed = 0;
        var longest = 0.0;
        @Nullable Double staleEndedAfter = null;
        while (run.clock().now() < until) {
            var product = products.get(sent % products.size());
            var startedAt = System.nanoTime();
            try {
                api.createOrder("chaos-" + run.runTag() + "-frozen-" + sent, product, 1);
            } catch (IllegalStateException ex) {
                failed++;
            }
            sent++;
            longest = Math.max(longest, (System.nanoTime() - startedAt) / 1e9);
            if (staleEndedAfter == null && run.database().staleTransactions() == 0) {
                staleEndedAfter = ChaosJudge.round(run.clock().now() - frozen);
            }
            FaultRun.pause(Duration.ofMillis(100));
        }
        return new WhileFrozen(sent, failed, ChaosJudge.round(longest), staleEndedAfter);
    }

    private static long poolTimeouts(ApiClient api) {
        return Math.round(api.metrics()
                .lines()
                .filter(line -> line.startsWith(POOL_TIMEOUTS))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum());
    }

    /** kill -STOP or -CONT: a stopped process keeps its sockets and answers nothing. */
    private static void signal(AppProcess worker, String signal) {
        try {
            var exit = new ProcessBuilder("kill", "-" + signal, Long.toString(worker.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            if (exit != 0) {
                throw new IllegalStateException("kill -" + signal + " " + worker.pid() + " exited with " + exit);
            }
        } catch (IOException ex) {
            throw new IllegalStateException("could not send SIG" + signal + " to " + worker.name(), ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + worker.name(), ex);
        }
    }
}
