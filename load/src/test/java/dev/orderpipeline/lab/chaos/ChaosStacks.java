package dev.orderpipeline.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.infra.FreePorts;
import dev.orderpipeline.infra.StackConfig;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.PhaseFigures;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the chaos end-to-end classes share: a stack of their own started from a snapshot of the packaged jars, one
 * small run of the experiment on it, and the verdict read once more from the database. Each class has its own stack,
 * so that the classes run side by side (failsafe runs the end-to-end classes concurrently) and a fault of one never
 * reaches another's run.
 */
final class ChaosStacks {

    /** The repository root: failsafe runs in the module directory. */
    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

    /**
     * A killed member holds its partitions until its session expires (45 s by default); a shorter session keeps the
     * kill tests short, and the runs plan their windows by it. The experiment itself runs with the defaults.
     */
    private static final Duration SESSION = Duration.ofSeconds(10);

    private static final List<String> SHORT_SESSIONS =
            List.of("--spring.kafka.consumer.properties.session.timeout.ms=" + SESSION.toMillis());

    /**
     * The checkouts per second of the shared runs and the broker kill: enough for carts in flight at every kill, 503s
     * while the broker is down and decisions on every partition, while the classes run side by side on two cores.
     */
    static final int RATE = 10;

    private ChaosStacks() {}

    /**
     * A stack in {@code workDirectory}: an embedded PostgreSQL that can be restarted, {@code brokers} brokers from the
     * Kafka jars (a KRaft cluster when more than one), one API and {@code workers} workers with short sessions. The
     * callers' temporary directories are kept when a test fails: the apps' and brokers' logs are in its {@code logs}.
     */
    static StackTarget start(Path workDirectory, int brokers, int workers) throws IOException {
        var ports = FreePorts.several(2);
        var config = StackConfig.defaults(snapshotOfTheJars(workDirectory.resolve("project")))
                .withWorkDirectory(workDirectory)
                .withDatabase(new StackConfig.Database.Embedded(ports.get(0)))
                .withBroker(StackConfig.Broker.FromJars.onFreePorts(brokers, ports))
                .withApps(ports.get(1), workers, twoFreePorts(ports))
                .withAppOptions(List.of(), SHORT_SESSIONS);
        return StackTarget.start(config, 1, Duration.ofSeconds(30));
    }

    /**
     * A small run of {@code faults} at {@code rate} checkouts/s with a {@code cartShare} of carts: a few thousand
     * checkouts at most, short fault windows planned by the short session, so that a class stays within a few minutes
     * on two cores.
     */
    static ChaosRun run(StackTarget target, List<FaultKind> faults, int rate, double cartShare) {
        var settings = new ChaosSettings(
                rate,
                3,
                faults,
                1,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                Duration.ofSeconds(4),
                250,
                Duration.ofSeconds(3),
                Duration.ofSeconds(3),
                2000,
                cartShare,
                Duration.ofSeconds(20),
                SESSION);
        // the experiment's phases on stderr, which failsafe keeps in the class's output file: where a slow run spent
        // its time
        try (var progress = Progress.toStandardError(
                "chaos " + faults.stream().map(FaultKind::label).toList())) {
            return new ChaosExperiment(target, settings, progress).run();
        }
    }

    /**
     * A run that several tests of a class judge, with the pids the workers had before it; a run that threw is not
     * made again by the next test that needs it.
     */
    record SharedRun(
            List<Long> workerPidsBefore,
            @Nullable ChaosRun run,
            @Nullable RuntimeException failure) {

        ChaosRun get() {
            if (failure != null) {
                throw new AssertionError("the shared run failed", failure);
            }
            return Objects.requireNonNull(run);
        }
    }

    /** The shared runs of one class on its stack, by their faults, each made by the first test that asks for it. */
    static final class SharedRuns {

        private final Map<List<FaultKind>, SharedRun> made = new HashMap<>();

        /** The run of {@code faults} at {@link #RATE} with a {@code cartShare} of carts. */
        SharedRun of(StackTarget target, List<FaultKind> faults, double cartShare) {
            return made.computeIfAbsent(faults, kinds -> {
                var pids = target.stack().workers().stream()
                        .map(worker -> worker.pid())
                        .toList();
                try {
                    return new SharedRun(pids, run(target, kinds, RATE, cartShare), null);
                } catch (RuntimeException ex) {
                    return new SharedRun(pids, null, ex);
                }
            });
        }
    }

    /** Every check of the run holds, and it accepted checkouts at all. */
    static void assertHolds(ChaosRun run) {
        assertThat(run.checks())
                .as("notes: %s", run.notes())
                .filteredOn(check -> !check.holds())
                .extracting(Check::what, Check::measured)
                .isEmpty();
        assertThat(run.acceptance().accepted()).isPositive();
    }

    /** The invariants once more, straight from the database with the shared checker, for every product of the run. */
    static void assertBooksBalance(StackTarget target, ChaosRun run) {
        var checker =
                new InvariantChecker(Objects.requireNonNull(target.database()).dataSource());
        var decided = 0L;
        for (var book : run.products()) {
            var truth = checker.check(book.productId(), book.initialStock());
            assertThat(truth.oversold()).isFalse();
            assertThat(truth.drift()).isZero();
            assertThat(truth.doublePayments()).isZero();
            assertThat(truth.paymentsWithoutCompletion()).isZero();
            assertThat(truth.payments()).isEqualTo(truth.completedOrders());
            decided += truth.completedOrders() + truth.rejectedOrders();
        }
        assertThat(run.idempotency().rows()).isEqualTo(decided);
    }

    static PhaseFigures phase(ChaosRun run, FaultKind fault) {
        return run.phases().stream()
                .filter(phase -> phase.fault() == fault)
                .findFirst()
                .orElseThrow();
    }

    /**
     * The apps' jars copied as they are now: a worker restarted after its kill must run the code the others run, and
     * a rebuild of the apps while the class runs (another build in the same tree) must not change a jar under the
     * running processes. The JVM flags files travel with their jars: the launcher reads them from the project. So does
     * the worker's ahead-of-time cache with its extracted jar, when the build made them, with their timestamps (the
     * JVM uses the cache only with the very jars it was made from): every worker start of a chaos run, the restarts
     * after the kills included, then costs half the CPU, as in production.
     */
    private static Path snapshotOfTheJars(Path directory) throws IOException {
        var original = StackConfig.defaults(PROJECT);
        var copy = StackConfig.defaults(directory);
        for (var jars : List.of(
                List.of(original.apiJar(), copy.apiJar()),
                List.of(original.workerJar(), copy.workerJar()),
                List.of(original.workerJvmOptionsFile(), copy.workerJvmOptionsFile()),
                List.of(original.apiJvmOptionsFile(), copy.apiJvmOptionsFile()))) {
            Files.createDirectories(jars.get(1).getParent());
            Files.copy(jars.get(0), jars.get(1), StandardCopyOption.REPLACE_EXISTING);
        }
        if (original.workerLaunchJar().equals(original.workerExtractedJar())) {
            copyTree(
                    Objects.requireNonNull(original.workerAotCache().getParent()),
                    Objects.requireNonNull(copy.workerAotCache().getParent()));
        }
        return directory;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var paths = Files.walk(from)) {
            for (var path : (Iterable<Path>) paths::iterator) {
                var target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** The first of two consecutive free ports that are none of {@code taken}. */
    private static int twoFreePorts(List<Integer> taken) {
        while (true) {
            var first = FreePorts.one();
            if (first < 65_535 && !taken.contains(first) && !taken.contains(first + 1) && FreePorts.isFree(first + 1)) {
                return first;
            }
        }
    }
}
