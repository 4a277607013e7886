package dev.orderpipeline.lab.soak;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.backlog.BacklogWriter;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.load.OpenLoad;
import dev.orderpipeline.lab.load.OpenModelSchedule;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Latency;
import dev.orderpipeline.lab.measure.LatencyRecorder;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.measure.ResourceSampler;
import dev.orderpipeline.lab.measure.StatusCounts;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Strategies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * Runs a soak: per strategy, key distribution and rate, fresh products and one order per arrival (prepared, not
 * timed: set-based in the database when the lab has it, else through the API), then checkouts started on an {@link
 * OpenModelSchedule}, at most {@code maxInFlight} at once, arrivals beyond that dropped and counted, not queued.
 */
public final class SoakExperiment {

    /** The kind under which the sampler watches the lab's own JVM. */
    static final String LAB = "lab";

    private static final Duration LEAD = Duration.ofMillis(200);
    static final Duration RESULTS_GRACE = Duration.ofSeconds(10);
    /** How long the lab waits for every order of a run to be final before it reads the invariants. */
    private static final Duration FINAL_TIMEOUT = Duration.ofSeconds(60);

    private final StackTarget target;
    private final SoakSettings settings;
    private final Progress progress;
    private final @Nullable ResultsListener results;
    private final Duration drainTimeout;
    private final String workerGroup;
    private final CapacityModel.@Nullable Probes probes;

    /**
     * @param workerGroup the workers' consumer group, whose lag kafka runs follow and which the drain probe uses
     * @param probes the capacity model's probes, run after the runs; {@code null}: no model
     */
    public SoakExperiment(
            StackTarget target,
            SoakSettings settings,
            Progress progress,
            @Nullable ResultsListener results,
            Duration requestTimeout,
            String workerGroup,
            CapacityModel.@Nullable Probes probes) {
        this.target = target;
        this.settings = settings;
        this.progress = progress;
        this.results = results;
        this.drainTimeout = requestTimeout.plusSeconds(5);
        this.workerGroup = workerGroup;
        this.probes = probes;
    }

    /** The runs, the strategies the API does not offer, and the capacity model when its probes ran. */
    public record Outcome(
            List<SoakRun> runs,
            List<String> skipped,
            @Nullable CapacityModel capacity) {}

    /**
     * Every strategy warmed up first, then per key distribution and rate the strategies one after the other: runs
     * to be compared are next to each other in time, so a change in what else the machine does spreads over all
     * strategies instead of falling on one.
     */
    public Outcome run() {
        var runs = new ArrayList<SoakRun>();
        var skipped = new ArrayList<String>();
        var available = Strategies.offered(target.apis().getFirst(), settings.strategies(), progress, skipped::add);
        if (settings.warmup().isPositive()) {
            for (var strategy : available) {
                var warm = runOne(
                        strategy,
                        settings.distributions().getFirst(),
                        settings.rates().getFirst(),
                        settings.warmup());
                progress.note(String.format(
                        Locale.ROOT, "%s warm-up: %d checkouts (not reported)", warm.label(), warm.scheduled()));
            }
        }
        var runCount = settings.distributions().size() * settings.rates().size() * available.size();
        for (var keys : settings.distributions()) {
            for (var rate : settings.rates()) {
                for (var strategy : available) {
                    progress.item("run", runs.size() + 1, runCount, "");
                    var run = runOne(strategy, keys, rate, settings.duration());
                    progress.note(String.format(
                            Locale.ROOT,
                            "%s: achieved %.1f/s, p99 %.1f ms%s, %d errors, %d dropped%s",
                            run.label(),
                            run.achievedRate(),
                            run.latency().p99Ms(),
                            run.finalLatency() == null
                                    ? ""
                                    : String.format(
                                            Locale.ROOT,
                                            ", decision p99 %.1f ms",
                                            run.finalLatency().p99Ms()),
                            run.errors(),
                            run.dropped(),
                            run.saturated() ? "  SATURATED: " + String.join("; ", run.saturationReasons()) : ""));
                    runs.add(run);
                }
            }
        }
        return new Outcome(
                runs,
                skipped,
                probes == null ? null : CapacityModel.measure(target, workerGroup, probes, runs, progress));
    }

    /** The products and orders of a run, prepared before its timed part. */
    private record Prepared(
            UUID productId, int products, Map<UUID, Integer> initialStock, List<UUID> orders, List<String> users) {}

    private Prepared prepare(String label, KeyDistribution keys, int arrivals) {
        progress.phase(label + " prepare", arrivals);
        var tag = "soak-" + UUID.randomUUID().toString().substring(0, 8);
        var fixed = settings.stock();
        var backlog = new BacklogWriter(target.database().dataSource())
                .create(tag, keys, arrivals, orders -> fixed != null ? fixed : orders, tag.hashCode(), progress);
        return new Prepared(
                backlog.products().getFirst(),
                backlog.products().size(),
                backlog.initialStock(),
                IntStream.range(0, arrivals).mapToObj(backlog::orderId).toList(),
                IntStream.range(0, arrivals).mapToObj(backlog::userId).toList());
    }

    private SoakRun runOne(String strategy, KeyDistribution keys, int rate, Duration duration) {
        var label = strategy + (keys.products() == 1 ? "" : " " + keys.label()) + " @ " + rate + "/s";
        var schedule = new OpenModelSchedule(rate, duration);
        var prepared = prepare(label, keys, schedule.arrivals());
        var asynchronous = Strategies.isAsynchronous(strategy);
        var listener = asynchronous ? results : null;
        if (listener != null) {
            listener.track(prepared.orders());
        }
        var durationSeconds = duration.toNanos() / 1e9;
        var timeline = new Timeline((int) Math.ceil(durationSeconds) + (int) drainTimeout.toSeconds() + 1);

        progress.phase(label + " load", schedule.arrivals());
        var watched = new ArrayList<>(target.processes());
        watched.add(new ResourceSampler.Watched(LAB, ProcessHandle.current().pid()));
        var sampler = ResourceSampler.start(watched, target.database(), ResourceSampler.DEFAULT_INTERVAL);
        var start = System.nanoTime() + LEAD.toNanos();
        var lag = asynchronous ? LagRecorder.start(target.bootstrapServers(), workerGroup, start) : null;
        var arrivals = new SoakArrivals(strategy, prepared, schedule, timeline, start);
        var latency = drive(label, schedule, arrivals, start, lag);
        var accepted = arrivals.statuses.snapshot().getOrDefault("202", 0L);
        var decisions = listener == null ? null : decisions(listener, prepared, schedule, start, timeline, accepted);
        var lagFigures = lag == null ? null : lag.stop(accepted, decisions == null ? 0 : decisions.received());
        var kafka = decisions == null ? null : lagFigures;
        var finalLatency = decisions == null ? null : decisions.latency();
        var resources = sampler.stop();
        var invariants = invariants(prepared, arrivals.succeeded.get());

        var window = Math.max(durationSeconds, (arrivals.lastAnswer.get() - start) / 1e9);
        var achieved = arrivals.succeeded.get() / window;
        var reasons = settings.saturationReasons(rate, achieved, latency, finalLatency, kafka, arrivals.dropped.get());
        return new SoakRun(
                label,
                strategy,
                keys.label(),
                prepared.products(),
                rate,
                durationSeconds,
                prepared.productId(),
                schedule.arrivals(),
                arrivals.started.get(),
                arrivals.succeeded.get(),
                arrivals.errors.get(),
                arrivals.dropped.get(),
                Math.round(achieved * 10) / 10.0,
                latency,
                finalLatency,
                arrivals.statuses.snapshot(),
                timeline.seconds(),
                !reasons.isEmpty(),
                reasons,
                resources,
                kafka,
                invariants,
                CheckoutCost.of(resources, invariants.completed() + invariants.rejected()));
    }

    /** The arrivals on their schedule, then until those in flight are answered (or a while has passed). */
    private Latency drive(
            String label, OpenModelSchedule schedule, SoakArrivals arrivals, long start, @Nullable LagRecorder lag) {
        var load = new OpenLoad(schedule, schedule.arrivals(), settings.maxInFlight(), arrivals);
        try (load) {
            load.start(start).awaitArrivals();
            if (lag != null) {
                lag.lastArrival();
            }
            progress.phase(label + " draining", 0);
            if (!load.awaitIdle(drainTimeout)) {
                progress.note("Requests still in flight after " + drainTimeout.toSeconds() + " s");
            }
        }
        return load.latency();
    }

    /** Checkouts of the prepared orders, counted into the run's timeline. */
    private final class SoakArrivals implements OpenLoad.Arrivals {

        private final String strategy;
        private final Prepared prepared;
        private final OpenModelSchedule schedule;
        private final Timeline timeline;
        private final StatusCounts statuses = new StatusCounts();
        private final AtomicLong started = new AtomicLong();
        private final AtomicLong succeeded = new AtomicLong();
        private final AtomicLong errors = new AtomicLong();
        private final AtomicLong dropped = new AtomicLong();
        private final AtomicLong lastAnswer = new AtomicLong();
        private final long start;

        SoakArrivals(String strategy, Prepared prepared, OpenModelSchedule schedule, Timeline timeline, long start) {
            this.strategy = strategy;
            this.prepared = prepared;
            this.schedule = schedule;
            this.timeline = timeline;
            this.start = start;
        }

        @Override
        public void send(int index, long dueNanos) {
            started.incrementAndGet();
            timeline.started(schedule.second(index));
            var apis = target.apis();
            try {
                var status = apis.get(index % apis.size())
                        .checkout(
                                prepared.orders().get(index),
                                prepared.users().get(index),
                                strategy,
                                settings.delayMillis());
                var end = System.nanoTime();
                var success = status.startsWith("2");
                statuses.add(status);
                (success ? succeeded : errors).incrementAndGet();
                timeline.answered(end - start, end - dueNanos, success);
                lastAnswer.accumulateAndGet(end, Math::max);
            } finally {
                progress.advance();
            }
        }

        @Override
        public void dropped(int index) {
            dropped.incrementAndGet();
            timeline.dropped(schedule.second(index));
            progress.advance();
        }
    }

    /** What the results listener saw of a kafka run: latency from each scheduled start to its result. */
    private record Decisions(Latency latency, long received) {}

    /** Waits a while for the result of every accepted checkout, then times each from its scheduled start. */
    private Decisions decisions(
            ResultsListener listener,
            Prepared prepared,
            OpenModelSchedule schedule,
            long start,
            Timeline timeline,
            long accepted) {
        listener.awaitReceived(accepted, System.nanoTime() + RESULTS_GRACE.toNanos());
        var received = listener.receivedAt();
        var toOutcome = new LatencyRecorder();
        for (var index = 0; index < prepared.orders().size(); index++) {
            var at = received.get(prepared.orders().get(index));
            if (at != null) {
                toOutcome.recordNanos(at - (start + schedule.offsetNanos(index)));
                timeline.decided(at - start);
            }
        }
        return new Decisions(toOutcome.summary(), received.size());
    }

    /**
     * Once every order whose checkout was answered 2xx is final (or a while has passed), the database's verdict on the
     * run's products. The orders of arrivals dropped or refused stay CREATED: nothing is waited for them.
     */
    private RunVerdict invariants(Prepared prepared, long answered) {
        var database = target.database();
        var neverAnswered = prepared.orders().size() - answered;
        database.awaitFinal(
                prepared.initialStock().keySet(),
                neverAnswered,
                System.nanoTime() + FINAL_TIMEOUT.toNanos(),
                Duration.ofMillis(200));
        return new InvariantChecker(database.dataSource()).verdict(prepared.initialStock());
    }
}
