package dev.orderpipeline.lab.soak;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.compare.CheckoutCosts;
import dev.orderpipeline.lab.compare.CompareReport;
import dev.orderpipeline.lab.compare.SkippedStrategy;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.pipeline.Strategies;
import dev.orderpipeline.lab.report.Cells;
import dev.orderpipeline.lab.report.Chart;
import dev.orderpipeline.lab.report.Column;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * What a soak found: per strategy and rate the sustained figures and where each strategy saturates; and what its costs
 * predict with more cores.
 *
 * @param capacity {@code null} when the probes did not run (no {@code --drain-probe})
 */
public record SoakReport(
        ReportHeader header,
        SoakSettings settings,
        List<SoakRun> runs,
        List<String> skipped,
        @Nullable CapacityModel capacity)
        implements LabReport {

    public SoakReport {
        runs = List.copyOf(runs);
        skipped = List.copyOf(skipped);
    }

    @Override
    public String summary() {
        return String.format(
                Locale.ROOT,
                "Open-model load (keys: %s): checkouts start on a schedule at the target rate for %d s,"
                        + " whatever the answers do, at most %d in flight (arrivals beyond are dropped and counted);"
                        + " latency counts from each request's scheduled start, so queueing shows. For kafka the"
                        + " decision is timed too, from the scheduled start to its result on checkout.results.",
                settings.keys().stream().map(KeyDistribution::label).collect(Collectors.joining(", ")),
                settings.duration().toSeconds(),
                settings.maxInFlight());
    }

    /** Every run of the pipeline (kafka) is safe: see {@link dev.orderpipeline.lab.report.LabReport#holds}. */
    @Override
    public boolean holds() {
        return runs.stream()
                .filter(run -> Strategies.KAFKA.equals(run.strategy()))
                .allMatch(run -> run.invariants().safe());
    }

    @Override
    public List<Table> tables() {
        var tables = new ArrayList<Table>(List.of(sustainedTable()));
        Stream.of(headlineTable(), kafkaTable())
                .filter(table -> !table.rows().isEmpty())
                .forEach(tables::add);
        tables.addAll(CheckoutCosts.table("Run", runs, SoakRun::label, SoakRun::cost));
        if (capacity != null) {
            tables.addAll(capacity.tables());
        }
        tables.addAll(CompareReport.notRun(skipped.stream()
                .map(strategy -> new SkippedStrategy(strategy, Strategies.UNKNOWN))
                .toList()));
        return tables;
    }

    Table sustainedTable() {
        var columns = new ArrayList<>(List.<Column<SoakRun>>of(
                Column.of("Run", SoakRun::label),
                Column.of("Target/s", run -> Integer.toString(run.targetRate())),
                Column.of("Achieved/s", run -> Cells.decimal(run.achievedRate(), 1)),
                Column.count("2xx", SoakRun::succeeded),
                Column.count("Errors", SoakRun::errors),
                Column.count("Dropped", SoakRun::dropped)));
        columns.addAll(Column.percentiles("", SoakRun::latency));
        columns.add(Column.of("to final p99", run -> Cells.duration(run.finalLatency(), Latency::p99Ms)));
        columns.add(Column.of(
                "Saturated", run -> run.saturated() ? "yes: " + String.join("; ", run.saturationReasons()) : "no"));
        columns.add(Column.of("Invariants", run -> verdict(run, run.invariants())));
        return Table.of(
                "Sustained load",
                columns,
                runs,
                "Latency from the scheduled start to the answer. Saturated: achieved below " + KEEPING_UP
                        + " of the target, p99 over " + P99_LIMIT + ", or arrivals dropped. Invariants: read from the"
                        + " database once every order of the run was final (or after 60 s); orders whose checkout was"
                        + " never sent (dropped at the in-flight bound) or never answered stay open by design, and only"
                        + " more open orders, or anything else off, violate them.");
    }

    Table kafkaTable() {
        return Table.of(
                "Kafka: decisions against acceptances",
                List.of(
                        Column.<SoakRun>of("Run", SoakRun::label),
                        Column.of("Accepted (202)", SoakRun::kafka, kafka -> Long.toString(kafka.accepted())),
                        Column.of("Decided", SoakRun::kafka, kafka -> Long.toString(kafka.decided())),
                        Column.of("to decision p50", run -> Cells.duration(run.finalLatency(), Latency::p50Ms)),
                        Column.of("Max lag", SoakRun::kafka, kafka -> Long.toString(kafka.maxLag())),
                        Column.of(
                                "Lag at last arrival",
                                SoakRun::kafka,
                                kafka -> Long.toString(kafka.lagAtLastArrival())),
                        Column.of(
                                "Kept up",
                                run -> Cells.yesNo(
                                        Objects.requireNonNull(run.kafka()).keptUp(run.targetRate())))),
                runs.stream().filter(run -> run.kafka() != null).toList(),
                "Lag: the workers' consumer group on checkout.commands, read every second. Kept up: every accepted"
                        + " checkout decided, and at the last arrival at most a second's worth of arrivals waiting.");
    }

    /** The invariants hold, or the only open orders are those of arrivals that were never sent or answered. */
    static String verdict(SoakRun run, RunVerdict invariants) {
        if (invariants.holds()) {
            return "hold";
        }
        var unsent = run.dropped() + run.errors();
        var onlyUnsent = invariants.oversoldProducts() == 0
                && invariants.drift() == 0
                && invariants.doublePayments() == 0
                && invariants.paymentsWithoutCompletion() == 0
                && invariants.payments() == invariants.completed()
                && invariants.notFinal() <= unsent;
        return onlyUnsent
                ? "hold; " + invariants.notFinal() + " open = arrivals dropped or unanswered"
                : String.join("; ", invariants.violations());
    }

    /**
     * The experiment's answer, per strategy: the highest rate it sustained on the hot product and on spread keys, the
     * ratio between them, and how the hot rate compares with the best lock strategy's (the strategies that are not
     * kafka and neither oversell nor lose updates: naive and naive-tx are left out of "best").
     */
    Table headlineTable() {
        var strategies = runs.stream().map(SoakRun::strategy).distinct().toList();
        var bestLock = strategies.stream()
                .filter(strategy -> !strategy.equals("kafka") && !UNSAFE.contains(strategy))
                .max(Comparator.comparingDouble(strategy -> sustained(strategy, true)));
        var bestLockHot = bestLock.map(strategy -> sustained(strategy, true)).orElse(0.0);
        return Table.of(
                "Hot product against spread keys",
                List.<Column<String>>of(
                        Column.of("Strategy", strategy -> strategy),
                        Column.of("Sustained, hot", strategy -> rate(sustained(strategy, true))),
                        Column.of(
                                "Sustained, spread",
                                strategy -> sustained(strategy, false) == 0
                                        ? Cells.NOT_AVAILABLE
                                        : rate(sustained(strategy, false)) + " ("
                                                + keptUp(strategy, false)
                                                        .toList()
                                                        .getLast()
                                                        .keys() + ")"),
                        Column.of(
                                "Hot / spread",
                                strategy -> sustained(strategy, false) == 0
                                        ? Cells.NOT_AVAILABLE
                                        : Cells.decimal(sustained(strategy, true) / sustained(strategy, false), 2)),
                        Column.of(
                                "Hot against the best lock",
                                strategy -> bestLockHot == 0 || sustained(strategy, true) == 0
                                        ? Cells.NOT_AVAILABLE
                                        : Cells.decimal(sustained(strategy, true) / bestLockHot, 1) + "x")),
                strategies,
                "Sustained: the highest achieved rate among the runs that kept up (achieved at least " + KEEPING_UP
                        + " of the target, p99 under " + P99_LIMIT
                        + ", for kafka the decision's too, nothing dropped); bounded by the highest rate tried."
                        + bestLock.map(strategy -> " The best lock strategy on the hot product here: " + strategy + ".")
                                .orElse(""));
    }

    /** The strategy's runs that kept up, on the hot product or on spread keys. */
    private Stream<SoakRun> keptUp(String strategy, boolean hot) {
        return runs.stream()
                .filter(run -> run.strategy().equals(strategy)
                        && !run.saturated()
                        && run.keys().equals("hot") == hot);
    }

    /** The highest rate the strategy kept up, 0 when it kept up at none. */
    private double sustained(String strategy, boolean hot) {
        return keptUp(strategy, hot).mapToDouble(SoakRun::achievedRate).max().orElse(0);
    }

    private static String rate(double sustained) {
        return sustained > 0 ? Cells.decimal(sustained, 0) + "/s" : "none kept up";
    }

    /** Strategies that oversell or lose updates: not candidates for the best lock strategy. */
    private static final Set<String> UNSAFE = Set.of("naive", "naive-tx", "app-lock");

    /** The criteria of keeping up, as the notes say them. */
    private static final String KEEPING_UP = Math.round(SoakSettings.KEEPING_UP * 100) + "%";

    private static final String P99_LIMIT = SoakSettings.P99_LIMIT.toMillis() + " ms";

    /** p99 against the target rate, a line per strategy and key distribution; none when the soak had one rate. */
    @Override
    public List<Chart> charts() {
        if (runs.stream().mapToInt(SoakRun::targetRate).distinct().count() < 2) {
            return List.of();
        }
        var tails = new LinkedHashMap<String, List<Chart.Point>>();
        for (var run : runs) {
            // the strategy, with the key distribution when it is not the hot product
            var series = run.keys().equals("hot") ? run.strategy() : run.strategy() + " " + run.keys();
            tails.computeIfAbsent(series + " p99", key -> new ArrayList<>())
                    .add(new Chart.Point(run.targetRate(), run.latency().p99Ms()));
            if (run.finalLatency() != null) {
                tails.computeIfAbsent(series + " decision p99", key -> new ArrayList<>())
                        .add(new Chart.Point(
                                run.targetRate(), run.finalLatency().p99Ms()));
            }
        }
        // rates double from one run to the next: a log axis spaces them evenly
        return List.of(new Chart.Lines("p99-by-rate", "p99 against target rate", "target checkouts/s", "ms", tails)
                .withLogX());
    }
}
