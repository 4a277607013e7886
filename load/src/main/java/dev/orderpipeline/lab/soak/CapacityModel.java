package dev.orderpipeline.lab.soak;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.drain.Ceiling;
import dev.orderpipeline.lab.drain.CeilingRun;
import dev.orderpipeline.lab.drain.CeilingSettings;
import dev.orderpipeline.lab.drain.DrainExperiment;
import dev.orderpipeline.lab.drain.DrainSettings;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceUsage;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Column;
import dev.orderpipeline.lab.report.Table;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * What the soak's costs say each strategy would sustain once order-api, the broker, the workers and PostgreSQL each
 * have cores of their own: a component allows {@code cores × 1000 / its CPU ms per checkout} checkouts per second, and
 * one hot product is bound besides by what serializes it, one partition for the pipeline (the drain probe) and the
 * product's row for a lock strategy (the hot-row probe); neither moves with cores. The report writes the assumptions
 * next to the figures.
 *
 * @param machineCores the cores the run's processes shared
 * @param hotRow the hot-row probe, a run per count of {@link #HOT_ROW_WRITERS}: the row admits the best of them
 * @param estimates per strategy and key distribution, in the order of the runs
 */
public record CapacityModel(
        List<Integer> cores,
        int machineCores,
        PartitionDrain partitionDrain,
        List<CeilingRun> hotRow,
        List<Estimate> estimates) {

    static final List<Integer> CORES = List.of(1, 2, 4, 8);

    static final String PARTITION = "one partition";
    static final String HOT_ROW = "hot row";

    /** The hot-row probe's connection counts, a run per count; the row admits the best of them. */
    static final List<Integer> HOT_ROW_WRITERS = List.of(1, 4, 16);

    /** Enough for 10 s of the hot row at its usual 1,000-2,000 transactions/s; fewer when the drain probe is smaller. */
    private static final int HOT_ROW_COMMANDS = 20_000;

    private static final Duration HOT_ROW_DURATION = Duration.ofSeconds(10);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);

    private static final String ASSUMPTIONS = "Assumptions. Each of order-api, the broker, the workers and PostgreSQL"
            + " has the column's cores to itself, and a checkout costs each what it cost in the run named (the CPU per"
            + " decided checkout at the highest rate the strategy kept up with, else at its highest achieved): a"
            + " component allows cores x 1000 / its ms checkouts per second. A lock strategy's path is order-api and"
            + " PostgreSQL only. One hot product is bound besides by what serializes it, which cores do not move: for"
            + " the pipeline one partition, whose commands one consumer applies in order (the drain probe's rate,"
            + " measured on the shared cores, so a floor); for a lock strategy the product's row, held by one"
            + " transaction at a time through its commit's WAL flush (the hot-row probe: one checkout per transaction"
            + " on many connections, no API, PostgreSQL with the cores to itself). Spread keys: enough partitions and"
            + " worker processes that no partition binds (at least rate / the partition's rate), and a lock strategy"
            + " pays what it paid here on those keys. Not modelled: a network between the components (here loopback),"
            + " disks busier than one flush at a time, memory, and contention that grows with the rate. This machine:"
            + " everything, the lab's load generator included, on its cores together, against what that run achieved"
            + " (bounded by the highest rate tried).";

    public CapacityModel {
        cores = List.copyOf(cores);
        hotRow = List.copyOf(hotRow);
        estimates = List.copyOf(estimates);
    }

    /**
     * One partition drained by the stack's workers ({@link DrainExperiment#alongside}): {@code commands} checkouts of
     * one product sent as fast as the producer goes, decided as fast as the worker goes.
     *
     * @param seconds from the first result to the last
     * @param perSecond decisions per second over those seconds
     */
    public record PartitionDrain(long commands, double seconds, double perSecond, RunVerdict invariants) {}

    /** What the hot row admits: the best of its probe's runs. */
    static double best(List<CeilingRun> hotRow) {
        return hotRow.stream().mapToDouble(CeilingRun::perSecond).max().orElse(0);
    }

    /**
     * One strategy on one key distribution, from one run of it.
     *
     * @param run the run whose costs the estimate takes: the highest rate kept up, else the highest achieved
     * @param rates the sustainable rate with each of {@link #cores} cores per component
     * @param thisMachine the rate the model gives for the run's own machine, every component and the lab (the load
     *     generator, which shared the machine) on its cores
     * @param measuredPerSecond what that run achieved, to hold {@code thisMachine} against
     */
    public record Estimate(
            String strategy, String keys, String run, List<Rate> rates, Rate thisMachine, double measuredPerSecond) {

        public Estimate {
            rates = List.copyOf(rates);
        }
    }

    /** A sustainable rate and what bounds it: a component, {@link #PARTITION} or {@link #HOT_ROW}. */
    public record Rate(int cores, double perSecond, String bound) {}

    /**
     * The probes on the stack after the soak's runs, then the model: the drain probe is the drain's own code on the
     * stack's running workers, the hot-row probe the ceiling's writer with k = 1 on each count of connections at once,
     * all on one product (a fresh one per count), no API, so PostgreSQL has the cores to itself. One writer waits on
     * no lock but overlaps nothing; many queue on the row, and past a few their hand-offs cost more than the overlap
     * gains: the row admits the best of them.
     */
    static CapacityModel measure(
            StackTarget target, String workerGroup, int drainCommands, List<SoakRun> runs, Progress progress) {
        var database = target.database();
        var drainSettings =
                new DrainSettings(drainCommands, KeyDistribution.HOT, 1, Duration.ofMillis(250), DRAIN_TIMEOUT, null);
        var drained = new DrainExperiment(target, drainSettings, progress).alongside(workerGroup);
        var drain = new PartitionDrain(
                drained.commands(), drained.decidingSeconds(), drained.perSecondDeciding(), drained.invariants());
        var hotRow = HOT_ROW_WRITERS.stream()
                .map(count -> {
                    progress.note("Capacity probe: the hot row, " + count + " writer(s), one checkout per transaction");
                    var settings = new CeilingSettings(
                            List.of(1), Math.min(HOT_ROW_COMMANDS, drainCommands), HOT_ROW_DURATION, count);
                    return new Ceiling(database.dataSource(), settings, progress)
                            .run()
                            .getFirst();
                })
                .toList();
        return of(runs, drain, hotRow, Runtime.getRuntime().availableProcessors());
    }

    /** The model of the runs that have a cost, an estimate per strategy and key distribution. */
    static CapacityModel of(List<SoakRun> runs, PartitionDrain drain, List<CeilingRun> hotRow, int machineCores) {
        var groups = runs.stream()
                .filter(run -> run.cost() != null)
                .collect(Collectors.groupingBy(
                        run -> List.of(run.strategy(), run.keys()), LinkedHashMap::new, Collectors.toList()));
        var hotRowPerSecond = best(hotRow);
        var estimates = groups.values().stream()
                .map(group -> estimate(representative(group), drain.perSecond(), hotRowPerSecond, machineCores))
                .toList();
        return new CapacityModel(CORES, machineCores, drain, hotRow, estimates);
    }

    /** The highest rate kept up: its cost is the nearest to what a checkout costs at capacity, without queueing. */
    private static SoakRun representative(List<SoakRun> group) {
        return group.stream()
                .filter(run -> !run.saturated())
                .max(Comparator.comparingInt(SoakRun::targetRate))
                .orElseGet(() -> group.stream()
                        .max(Comparator.comparingDouble(SoakRun::achievedRate))
                        .orElseThrow());
    }

    private static Estimate estimate(SoakRun run, double partitionPerSecond, double hotRowPerSecond, int machineCores) {
        var pipeline = Strategies.isAsynchronous(run.strategy());
        var path = pipeline ? CheckoutCost.COMPONENTS : List.of(StackTarget.API, CheckoutCost.POSTGRESQL);
        var cost = Objects.requireNonNull(run.cost());
        // CPU ms per decided checkout of each component on its path (a lock strategy's has no broker and no worker)
        var cpuMs = new LinkedHashMap<String, Double>();
        for (var component : path) {
            var millis = cost.cpuMsByComponent().get(component);
            if (millis != null) {
                cpuMs.put(component, round(millis));
            }
        }
        var serial = run.keys().equals(KeyDistribution.HOT.label())
                ? Double.valueOf(pipeline ? partitionPerSecond : hotRowPerSecond)
                : null;
        var serialBound = pipeline ? PARTITION : HOT_ROW;
        var rates = CORES.stream()
                .map(cores -> rate(cores, cpuMs, serial, serialBound))
                .toList();
        // the lab's own JVM, the load generator, is no part of the cost but shared this machine's cores
        var labCpuSeconds = run.resources()
                .process(StackTarget.LAB)
                .map(ResourceUsage.ProcessUsage::cpuSeconds)
                .orElse(null);
        var all = cpuMs.values().stream().mapToDouble(Double::doubleValue).sum()
                + (labCpuSeconds == null ? 0 : round(labCpuSeconds * 1000 / cost.decided()));
        var thisMachine = rate(machineCores, Map.of("all", all), serial, serialBound);
        return new Estimate(run.strategy(), run.keys(), run.label(), rates, thisMachine, run.achievedRate());
    }

    /** The smallest of what each component's CPU allows on {@code cores}, and the serial bound when there is one. */
    static Rate rate(int cores, Map<String, Double> cpuMs, @Nullable Double serial, String serialBound) {
        var best = Double.POSITIVE_INFINITY;
        var bound = "none";
        for (var component : cpuMs.entrySet()) {
            if (component.getValue() > 0 && cores * 1000 / component.getValue() < best) {
                best = cores * 1000 / component.getValue();
                bound = component.getKey();
            }
        }
        if (serial != null && serial < best) {
            best = serial;
            bound = serialBound;
        }
        return new Rate(cores, Double.isInfinite(best) ? 0 : Math.round(best), bound);
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    /** The model as a reader sees it: the rates by cores with what bounds each, and its inputs. */
    List<Table> tables() {
        return List.of(ratesTable(), probesTable());
    }

    private Table ratesTable() {
        var columns = new ArrayList<Column<Estimate>>();
        columns.add(Column.of("Strategy", Estimate::strategy));
        columns.add(Column.of("Keys", Estimate::keys));
        columns.add(Column.of("Costs of", Estimate::run));
        for (var index = 0; index < cores.size(); index++) {
            var at = index;
            var count = cores.get(index);
            columns.add(Column.of(
                    count + (count == 1 ? " core" : " cores") + " each",
                    estimate -> rate(estimate.rates().get(at))));
        }
        columns.add(Column.of(
                "This machine (" + machineCores + " cores): model", estimate -> rate(estimate.thisMachine())));
        columns.add(Column.of("measured", estimate -> perSecond(estimate.measuredPerSecond())));
        columns.add(Column.of(
                "measured / model",
                estimate -> estimate.thisMachine().perSecond() > 0
                        ? Cells.decimal(
                                estimate.measuredPerSecond()
                                        / estimate.thisMachine().perSecond(),
                                2)
                        : Cells.NOT_AVAILABLE));
        return Table.of(
                "Capacity model: checkouts/s by cores per component (what bounds it)", columns, estimates, ASSUMPTIONS);
    }

    private Table probesTable() {
        var drain = partitionDrain;
        var rows = new ArrayList<List<String>>();
        rows.add(List.of(
                PARTITION,
                perSecond(drain.perSecond()),
                String.format(
                        Locale.ROOT,
                        "%d checkouts of one product sent to the command topic at once, decided by the stack's worker"
                                + " in %.2f s from the first result to the last",
                        drain.commands(),
                        drain.seconds()),
                Cells.invariants(drain.invariants())));
        var best = best(hotRow);
        for (var run : hotRow) {
            rows.add(List.of(
                    HOT_ROW + (run.perSecond() == best ? " (the best: the model's)" : ""),
                    perSecond(run.perSecond()),
                    String.format(
                            Locale.ROOT,
                            "%d checkouts on one product, one per transaction, by %d connection(s) at once in %.2f s",
                            run.commands(),
                            run.writers(),
                            run.seconds()),
                    Cells.invariants(run.invariants())));
        }
        return new Table(
                "Capacity model: the probes",
                List.of("Bound", "Rate", "Measured as", "Invariants"),
                rows,
                "Run after the soak's runs on the same stack. The CPU per checkout comes from the runs above.");
    }

    private static String rate(CapacityModel.Rate rate) {
        return perSecond(rate.perSecond()) + " (" + rate.bound() + ")";
    }

    private static String perSecond(double perSecond) {
        return String.format(Locale.ROOT, "%,.0f/s", perSecond);
    }
}
