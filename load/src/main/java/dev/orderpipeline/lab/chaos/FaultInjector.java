package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.infra.LocalStack;
import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Does the faults to the pipeline's processes, each as production would: SIGKILL a worker and restart it at once, stop
 * the broker and start it again on its data, stop PostgreSQL (fast shutdown) and start it again on its data and port,
 * switch the database read-only or give the apps' sessions a short lock timeout while the lab holds the products'
 * rows, start a worker in a consumer group of its own that reads the command topic from offset 0, write poison
 * records.
 * Each returns its window; a fault that cannot be carried out returns its window with the failure, and the run goes
 * on so that the report shows what it left behind.
 */
final class FaultInjector {

    private static final Logger log = LoggerFactory.getLogger(FaultInjector.class);
    private static final String WORKER_NAME = "checkout-worker-\\d+";
    private static final Duration REPLAY_POLL = Duration.ofMillis(500);
    private static final Duration SESSION_KILL_PERIOD = Duration.ofMillis(200);

    private final LocalStack stack;
    private final ChaosSettings settings;
    private final RunClock clock;
    private final String runTag;
    private final TopicReader topics;
    private final ChaosDatabase database;
    private final DatabaseFaults databaseFaults;

    FaultInjector(
            LocalStack stack,
            ChaosSettings settings,
            RunClock clock,
            String runTag,
            TopicReader topics,
            ChaosDatabase database,
            DatabaseFaults databaseFaults) {
        this.stack = stack;
        this.database = database;
        this.databaseFaults = databaseFaults;
        this.settings = settings;
        this.clock = clock;
        this.runTag = runTag;
        this.topics = topics;
    }

    /** The workers started with the stack, {@code checkout-worker-1}, {@code -2}...: the ones the kills alternate on. */
    List<AppProcess> mainWorkers() {
        return stack.workers().stream()
                .filter(worker -> worker.name().matches(WORKER_NAME))
                .toList();
    }

    /** kill -9 of worker {@code number} (1, 2, 1...), then started again at once and awaited, as a supervisor would. */
    FaultWindow killWorker(int number) {
        var name = "kill -9 #" + number;
        var start = clock.now();
        var workers = mainWorkers();
        if (workers.isEmpty()) {
            return failed(FaultKind.WORKER_KILL, name, start, "no checkout-worker runs");
        }
        var worker = workers.get((number - 1) % Math.min(2, workers.size()));
        try {
            var pid = worker.pid();
            var exit = worker.kill();
            var killed = clock.now();
            worker.start();
            worker.awaitReady(stack.config().startupTimeout());
            var end = clock.now();
            return new FaultWindow(
                    FaultKind.WORKER_KILL,
                    name,
                    start,
                    end,
                    String.format(
                            Locale.ROOT,
                            "SIGKILL to %s (pid %d, exit code %d), started again at once as pid %d, ready %.1f s after"
                                    + " the kill",
                            worker.name(),
                            pid,
                            exit,
                            worker.pid(),
                            end - killed),
                    null);
        } catch (RuntimeException ex) {
            log.error("{} of {} failed", name, worker.name(), ex);
            return failed(FaultKind.WORKER_KILL, name, start, ex.getMessage());
        }
    }

    /**
     * kill -9 of the worker owning most of the products, started again at once under its name; the window ends when
     * decisions on its products resumed (or after the catch-up limit).
     */
    FaultWindow killAndRestartWorker(List<UUID> products) {
        var start = clock.now();
        var workers = mainWorkers();
        if (workers.isEmpty()) {
            return failed(FaultKind.WORKER_KILL_RESTART, "kill -9 and restart", start, "no checkout-worker runs");
        }
        try {
            return new WorkerKillRestart(
                            topics, database, clock, stack.config().startupTimeout(), settings.catchUpLimit())
                    .inject(workers, products);
        } catch (RuntimeException ex) {
            log.error("kill -9 and restart failed", ex);
            return failed(FaultKind.WORKER_KILL_RESTART, "kill -9 and restart", start, ex.getMessage());
        }
    }

    /** The database read-only for the apps' sessions for {@code databaseFault}, then writable again. */
    FaultWindow readOnlyDatabase() {
        var name = "database read-only";
        var start = clock.now();
        try {
            var outcome = databaseFaults.readOnly(settings.databaseFault());
            return new FaultWindow(
                    FaultKind.DATABASE_READ_ONLY,
                    name,
                    start,
                    clock.now(),
                    String.format(
                            Locale.ROOT,
                            "ALTER DATABASE ... SET default_transaction_read_only = on and %d sessions of the apps"
                                    + " terminated; %.1f s later RESET and %d sessions terminated again",
                            outcome.terminatedAtStart(),
                            settings.databaseFault().toMillis() / 1000.0,
                            outcome.terminatedAtEnd()),
                    null);
        } catch (RuntimeException ex) {
            log.error("{} failed", name, ex);
            return failed(FaultKind.DATABASE_READ_ONLY, name, start, ex.getMessage());
        }
    }

    /**
     * The apps' sessions with a 100 ms lock timeout for {@code databaseFault} while the lab takes the products' rows
     * for 300 ms at a time.
     */
    FaultWindow lockTimeoutStorm(List<UUID> products) {
        var name = "lock-timeout storm";
        var start = clock.now();
        try {
            var outcome = databaseFaults.lockTimeoutStorm(settings.databaseFault(), products);
            return new FaultWindow(
                    FaultKind.LOCK_TIMEOUT_STORM,
                    name,
                    start,
                    clock.now(),
                    String.format(
                            Locale.ROOT,
                            "ALTER DATABASE ... SET lock_timeout = '100ms' and %d sessions of the apps terminated;"
                                    + " the lab held the %d products' rows FOR UPDATE %d times for %d ms (%d ms apart,"
                                    + " waited up to %d ms for them); then RESET and %d sessions terminated again",
                            outcome.terminatedAtStart(),
                            products.size(),
                            outcome.locks().holds(),
                            DatabaseFaults.LOCK_HOLD.toMillis(),
                            DatabaseFaults.LOCK_GAP.toMillis(),
                            outcome.locks().longestWaitMillis(),
                            outcome.terminatedAtEnd()),
                    null);
        } catch (RuntimeException ex) {
            log.error("{} failed", name, ex);
            return failed(FaultKind.LOCK_TIMEOUT_STORM, name, start, ex.getMessage());
        }
    }

    /** The broker stopped (controlled shutdown), left down, started again on the same data and ports. */
    FaultWindow restartBroker() {
        var name = "broker restart";
        var start = clock.now();
        var broker = stack.broker().orElse(null);
        if (broker == null) {
            return failed(FaultKind.BROKER_RESTART, name, start, "the stack uses an external Kafka cluster");
        }
        try {
            broker.stop();
            var stopped = clock.now();
            pause(settings.brokerDown());
            var starting = clock.now();
            broker.start();
            var end = clock.now();
            return new FaultWindow(
                    FaultKind.BROKER_RESTART,
                    name,
                    start,
                    end,
                    String.format(
                            Locale.ROOT,
                            "controlled stop took %.1f s, down %.1f s, start (same data, same port) took %.1f s",
                            stopped - start,
                            starting - stopped,
                            end - starting),
                    null);
        } catch (RuntimeException ex) {
            log.error("{} failed", name, ex);
            return failed(FaultKind.BROKER_RESTART, name, start, ex.getMessage());
        }
    }

    /** PostgreSQL stopped (fast shutdown), left down, started again on the same data directory and port. */
    FaultWindow restartDatabase() {
        var name = "PostgreSQL restart";
        var start = clock.now();
        var postgres = stack.postgres().filter(Postgres::isRestartable).orElse(null);
        if (postgres == null) {
            return failed(
                    FaultKind.DATABASE_RESTART,
                    name,
                    start,
                    "the stack's PostgreSQL is not an embedded one with a data directory of its own");
        }
        try {
            postgres.stopServer();
            var stopped = clock.now();
            pause(settings.databaseDown());
            var starting = clock.now();
            postgres.startServer();
            var end = clock.now();
            return new FaultWindow(
                    FaultKind.DATABASE_RESTART,
                    name,
                    start,
                    end,
                    String.format(
                            Locale.ROOT,
                            "pg_ctl stop -m fast took %.1f s (sessions terminated, port closed), down %.1f s, start"
                                    + " on the same data directory and port took %.1f s",
                            stopped - start,
                            starting - stopped,
                            end - starting),
                    null);
        } catch (RuntimeException ex) {
            log.error("{} failed", name, ex);
            if (!postgres.isServerRunning()) {
                try {
                    postgres.startServer();
                } catch (RuntimeException again) {
                    ex.addSuppressed(again);
                }
            }
            return failed(FaultKind.DATABASE_RESTART, name, start, ex.getMessage());
        }
    }

    /**
     * The apps' database sessions terminated every 200 ms for {@code databaseDown} ({@code pg_terminate_backend}),
     * PostgreSQL staying up: transactions die half-way, new connections work until they are terminated in turn.
     */
    FaultWindow killDatabaseSessions() {
        var name = "database sessions killed";
        var start = clock.now();
        try {
            var terminated = database.terminateSessions(settings.databaseDown(), SESSION_KILL_PERIOD);
            var end = clock.now();
            return new FaultWindow(
                    FaultKind.DATABASE_SESSIONS_KILLED,
                    name,
                    start,
                    end,
                    String.format(
                            Locale.ROOT,
                            "pg_terminate_backend on every session of the apps every %d ms for %.1f s: %d sessions"
                                    + " terminated",
                            SESSION_KILL_PERIOD.toMillis(),
                            end - start,
                            terminated),
                    null);
        } catch (RuntimeException ex) {
            log.error("{} failed", name, ex);
            return failed(FaultKind.DATABASE_SESSIONS_KILLED, name, start, ex.getMessage());
        }
    }

    /**
     * A worker in the consumer group {@code replay-<run tag>} reads the command topic from offset 0 (a new group starts
     * at the earliest offset) beside the live group; the window ends when its committed offsets reach the end the
     * topic had when it started. Then it is stopped.
     */
    FaultWindow replay() {
        var name = "replay from offset 0";
        var group = "replay-" + runTag;
        var start = clock.now();
        AppProcess worker = null;
        try {
            var end = topics.endOffsets(Topics.CHECKOUT_COMMANDS);
            var records = end.values().stream().mapToLong(Long::longValue).sum();
            worker = stack.addWorker("checkout-worker-replay", List.of("--orderpipeline.worker.group-id=" + group));
            var ready = clock.now();
            var deadline = System.nanoTime() + settings.replayLimit().toNanos();
            while (true) {
                var committed = topics.committed(group, Topics.CHECKOUT_COMMANDS);
                var behind = end.entrySet().stream()
                        .mapToLong(entry -> Math.max(0, entry.getValue() - committed.getOrDefault(entry.getKey(), 0L)))
                        .sum();
                if (behind == 0) {
                    break;
                }
                if (System.nanoTime() - deadline > 0) {
                    var at = clock.now();
                    return new FaultWindow(
                            FaultKind.REPLAY,
                            name,
                            start,
                            at,
                            "group " + group + " still " + behind + " of " + records + " records behind",
                            "the replay did not reach the end within "
                                    + settings.replayLimit().toSeconds() + " s");
                }
                pause(REPLAY_POLL);
            }
            var caughtUp = clock.now();
            return new FaultWindow(
                    FaultKind.REPLAY,
                    name,
                    start,
                    caughtUp,
                    String.format(
                            Locale.ROOT,
                            "a worker in group %s started in %.1f s and read all %d records the topic had (from"
                                    + " offset 0) in %.1f s more (%.0f records/s) beside the live group",
                            group,
                            ready - start,
                            records,
                            caughtUp - ready,
                            records / Math.max(0.001, caughtUp - ready)),
                    null);
        } catch (RuntimeException ex) {
            log.error("{} failed", name, ex);
            return failed(FaultKind.REPLAY, name, start, ex.getMessage());
        } finally {
            if (worker != null && worker.isAlive()) {
                worker.stop();
            }
        }
    }

    /**
     * The outcome of the poison injection.
     *
     * @param window the fault's window
     * @param sent records written per kind
     */
    record Injection(FaultWindow window, Map<PoisonKind, Integer> sent) {}

    /** Writes the poison records with a plain producer ({@code acks=all}) and waits for every acknowledgement. */
    Injection poison(List<UUID> hotProducts, UUID decoyProduct, List<PreparedOrder> decoys) {
        var name = "poison records";
        var start = clock.now();
        var records = PoisonRecords.build(
                runTag, settings.poisonRecords(), hotProducts, decoyProduct, decoys, runTag.hashCode());
        var sent = PoisonRecords.perKind(settings.poisonRecords());
        var properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, "orderpipeline-lab-poison");
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        // bounded: a broker that never comes back fails the injection (the first send gives up after 10 s) instead of
        // blocking every one of the records for a minute each
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        try (var producer = new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer())) {
            var acknowledgements = new ArrayList<Future<RecordMetadata>>();
            for (var record : records) {
                acknowledgements.add(producer.send(record));
            }
            producer.flush();
            for (var acknowledgement : acknowledgements) {
                acknowledgement.get(30, TimeUnit.SECONDS);
            }
            var end = clock.now();
            return new Injection(
                    new FaultWindow(
                            FaultKind.POISON,
                            name,
                            start,
                            end,
                            records.size() + " records to " + Topics.CHECKOUT_COMMANDS + " keyed by the hot products: "
                                    + sent,
                            null),
                    sent);
        } catch (Exception ex) {
            if (ex instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.error("{} failed", name, ex);
            return new Injection(failed(FaultKind.POISON, name, start, ex.getMessage()), sent);
        }
    }

    private FaultWindow failed(FaultKind kind, String name, double start, @Nullable String why) {
        var end = clock.now();
        return new FaultWindow(kind, name, start, end, "not carried out", why == null ? "unknown failure" : why);
    }

    static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
