package dev.orderpipeline.lab.rebalance;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.lab.backlog.BacklogWriter;
import dev.orderpipeline.lab.backlog.CommandProducer;
import dev.orderpipeline.lab.backlog.GroupWatch;
import dev.orderpipeline.lab.backlog.LagFollower;
import dev.orderpipeline.lab.backlog.OffsetSample;
import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.backlog.Warmup;
import dev.orderpipeline.lab.backlog.WorkerFleet;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Runs each scenario under each protocol on a fresh, empty command topic and a consumer group of its own. The workers
 * join first; once the group is stable the commands are sent at a steady rate the workers keep up with (or all at
 * once). When the given share of them is committed, a worker is started (add), killed with SIGKILL (kill), or killed
 * and started again at once under its name (restart), and the group's offsets and owners are read every interval
 * until the lag is zero.
 *
 * <p>A steady rate rather than a backlog, by default, because a consumer drains a backlog's partitions in bursts of
 * one fetch each, seconds apart, which would hide a rebalance's pause among ordinary gaps; at a rate it keeps up with,
 * every partition moves at every poll and a pause stands out.
 */
public final class RebalanceExperiment {

    private static final Duration STABLE_TIMEOUT = Duration.ofMinutes(3);

    private final StackTarget target;
    private final RebalanceSettings settings;
    private final Progress progress;
    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    public RebalanceExperiment(StackTarget target, RebalanceSettings settings, Progress progress) {
        this.target = target;
        this.settings = settings;
        this.progress = progress;
    }

    public List<RebalanceRun> run() {
        var runs = new ArrayList<RebalanceRun>();
        try (var watch = new GroupWatch(target.bootstrapServers());
                var fleet = new WorkerFleet(target)) {
            for (var scenario : settings.scenarios()) {
                for (var protocol : settings.protocols()) {
                    var run = runOne(watch, fleet, scenario, protocol);
                    progress.note(String.format(
                            Locale.ROOT,
                            "%s: group %s, moved %s, longest pause moved %.1f s, stayed %.1f s, %d duplicates%s",
                            run.label(),
                            run.groupType(),
                            run.moved(),
                            run.longestPauseMovedMillis() / 1000.0,
                            run.longestPauseStayedMillis() / 1000.0,
                            run.duplicates(),
                            run.invariants().holds()
                                    ? ""
                                    : "  VIOLATED: " + run.invariants().violations()));
                    runs.add(run);
                    fleet.stopAll();
                }
            }
        }
        return runs;
    }

    private RebalanceRun runOne(GroupWatch watch, WorkerFleet fleet, String scenario, String protocol) {
        var label = scenario + " / " + protocol;
        var database = target.database();
        progress.phase(label + ": fresh topic and workers", 0);
        watch.recreateCommandTopic(settings.partitions());
        var group = "lab-rebalance-" + tag + "-" + scenario + "-" + protocol;
        var arguments = List.of(
                "--orderpipeline.worker.group-id=" + group,
                "--orderpipeline.topics.command-partitions=" + settings.partitions(),
                "--spring.kafka.consumer.properties.group.protocol=" + protocol);
        var initial = scenario.equals(RebalanceSettings.ADD) ? 1 : 2;
        var workers = new ArrayList<AppProcess>();
        for (var i = 0; i < initial; i++) {
            workers.add(fleet.start(arguments));
        }
        workers.forEach(fleet::awaitReady);
        watch.awaitStable(group, initial, STABLE_TIMEOUT);
        Warmup.run(target, watch, group, group + "-warmup", settings.warmup(), settings.timeout(), progress);
        var runTag = "rebalance-" + tag + "-" + scenario + "-" + protocol;
        var backlog = new BacklogWriter(database.dataSource())
                .create(
                        runTag,
                        settings.distribution(),
                        settings.commands(),
                        orders -> (int) Math.min(Integer.MAX_VALUE, 2L * orders),
                        runTag.hashCode(),
                        progress);
        var resultsFrom = watch.endOffsets(Topics.CHECKOUT_RESULTS);
        var start = watch.endOffsets(Topics.CHECKOUT_COMMANDS);

        var events = new CopyOnWriteArrayList<String>();
        var eventMillis = new AtomicLong(-1);
        var readyMillis = new AtomicLong(-1);
        var ownersBefore = new AtomicReference<Map<Integer, String>>(Map.of());
        var added = new AtomicReference<@Nullable AppProcess>();
        var killed = new AtomicReference<@Nullable String>();
        var threshold = (long) Math.ceil(settings.eventAt() * backlog.size());
        progress.phase(label, backlog.size());
        var clockStart = System.nanoTime();
        var sending = CompletableFuture.supplyAsync(
                () -> CommandProducer.send(
                        target.bootstrapServers(), backlog, settings.rate(), true, Progress.silent()),
                task -> Thread.ofPlatform()
                        .name("lab-backlog-producer")
                        .daemon()
                        .start(task));
        var timeline = new LagFollower(watch, group, settings.interval(), false, true)
                .follow(start, backlog.size(), clockStart, settings.timeout(), progress, (sample, consumed) -> {
                    if (eventMillis.get() < 0 && consumed >= threshold) {
                        eventMillis.set(sample.atMillis());
                        ownersBefore.set(sample.owners());
                        fire(scenario, fleet, arguments, clockStart, events, added, killed, readyMillis);
                    }
                });
        var sent = join(sending);
        events.addFirst(String.format(
                Locale.ROOT,
                "%.1f s: backlog of %d commands sent (%.0f/s)",
                sent.seconds(),
                sent.records(),
                sent.perSecond()));
        var endMillis = timeline.drainedAtMillis(backlog.size()).orElseThrow();
        var last = timeline.samples().getLast();
        var ownersAfter = last.owners();
        var moved = new ArrayList<Integer>();
        for (var partition : start.keySet()) {
            if (!Objects.equals(ownersBefore.get().get(partition), ownersAfter.get(partition))) {
                moved.add(partition);
            }
        }
        @Nullable Double reassignedAt = null;
        for (OffsetSample sample : timeline.samples()) {
            if (eventMillis.get() >= 0
                    && sample.atMillis() > eventMillis.get()
                    && sample.owners().equals(ownersAfter)
                    && !ownersAfter.isEmpty()) {
                reassignedAt = sample.atMillis() / 1000.0;
                events.add(String.format(
                        Locale.ROOT, "%.1f s: partitions seen with their final owners %s", reassignedAt, ownersAfter));
                break;
            }
        }
        var pauses = timeline.longestStallMillis(Math.max(0, eventMillis.get()), endMillis);
        // the second half of the time before the event: the workers' normal rhythm, start-up transients past
        var before = timeline
                .longestStallMillis(Math.max(0, eventMillis.get()) / 2, Math.max(0, eventMillis.get()))
                .values()
                .stream()
                .mapToLong(Long::longValue)
                .max()
                .orElse(0);
        var killedPartitions = killed.get() == null ? List.<Integer>of() : ownedBy(ownersBefore.get(), killed.get());
        @Nullable Long pauseKilled = killed.get() == null ? null : longestAmong(pauses, killedPartitions);
        long pauseMoved = 0;
        long pauseStayed = 0;
        for (var entry : pauses.entrySet()) {
            if (moved.contains(entry.getKey())) {
                pauseMoved = Math.max(pauseMoved, entry.getValue());
            } else {
                pauseStayed = Math.max(pauseStayed, entry.getValue());
            }
        }
        var groupType = watch.describe(group).type();
        long counted = 0;
        for (var worker : fleet.alive()) {
            counted += fleet.duplicates(worker).orElse(0);
        }
        progress.phase(label + ": results and invariants", 0);
        var results = ResultsScan.read(
                target.bootstrapServers(),
                resultsFrom,
                watch.endOffsets(Topics.CHECKOUT_RESULTS),
                backlog,
                sent.sentAtMillis());
        var invariants = RunInvariants.check(database.dataSource(), backlog.initialStock());
        events.add(String.format(Locale.ROOT, "%.1f s: lag zero", endMillis / 1000.0));
        var ordered = new ArrayList<>(events);
        ordered.sort(java.util.Comparator.comparingDouble(RebalanceExperiment::secondsOf));
        return new RebalanceRun(
                scenario,
                protocol,
                groupType,
                backlog.size(),
                endMillis / 1000.0,
                Math.round(backlog.size() * 10000.0 / endMillis) / 10.0,
                eventMillis.get() / 1000.0,
                readyMillis.get() >= 0 ? readyMillis.get() / 1000.0 : null,
                reassignedAt,
                ownersBefore.get(),
                ownersAfter,
                moved,
                pauseMoved,
                pauseStayed,
                killed.get(),
                killedPartitions,
                pauseKilled,
                before,
                pauses,
                results.results(),
                results.duplicates(),
                backlog.size() - results.orders(),
                counted,
                results.endToEnd(),
                timeline.curve(),
                ordered,
                invariants);
    }

    private void fire(
            String scenario,
            WorkerFleet fleet,
            List<String> arguments,
            long clockStart,
            List<String> events,
            AtomicReference<@Nullable AppProcess> added,
            AtomicReference<@Nullable String> killed,
            AtomicLong readyMillis) {
        var at = sinceMillis(clockStart) / 1000.0;
        if (scenario.equals(RebalanceSettings.ADD)) {
            var worker = fleet.start(arguments);
            added.set(worker);
            events.add(String.format(Locale.ROOT, "%.1f s: started %s", at, worker.name()));
            awaitReadyInBackground(fleet, worker, clockStart, events, readyMillis);
        } else {
            var victim = fleet.alive().getLast();
            killed.set(victim.name());
            victim.kill();
            events.add(String.format(Locale.ROOT, "%.1f s: killed %s with SIGKILL", at, victim.name()));
            if (scenario.equals(RebalanceSettings.RESTART)) {
                // the same process description: same name, so the same client id and group instance id
                victim.start();
                events.add(String.format(
                        Locale.ROOT,
                        "%.1f s: started %s again under its name",
                        sinceMillis(clockStart) / 1000.0,
                        victim.name()));
                awaitReadyInBackground(fleet, victim, clockStart, events, readyMillis);
            }
        }
    }

    /** Waits for the worker on a thread of its own, so that the lag is still read meanwhile, and notes when. */
    private static void awaitReadyInBackground(
            WorkerFleet fleet, AppProcess worker, long clockStart, List<String> events, AtomicLong readyMillis) {
        Thread.ofVirtual().start(() -> {
            try {
                fleet.awaitReady(worker);
                readyMillis.set(sinceMillis(clockStart));
                events.add(String.format(Locale.ROOT, "%.1f s: %s ready", readyMillis.get() / 1000.0, worker.name()));
            } catch (IllegalStateException ex) {
                events.add(worker.name() + " did not get ready: " + ex.getMessage());
            }
        });
    }

    /**
     * The partitions a worker owned, by the owners' client ids: its name, or its name and {@code -<index>} as
     * spring-kafka suffixes a listener container's consumers.
     */
    static List<Integer> ownedBy(Map<Integer, String> owners, String worker) {
        return owners.entrySet().stream()
                .filter(entry ->
                        entry.getValue().equals(worker) || entry.getValue().startsWith(worker + "-"))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    /** The longest pause among {@code partitions}; 0 when none of them paused or there are none. */
    static long longestAmong(Map<Integer, Long> pauses, Collection<Integer> partitions) {
        return partitions.stream()
                .mapToLong(partition -> pauses.getOrDefault(partition, 0L))
                .max()
                .orElse(0);
    }

    /** The time an event line starts with ({@code 12.4 s: ...}); lines without one go last. */
    static double secondsOf(String event) {
        var end = event.indexOf(" s:");
        try {
            return end > 0 ? Double.parseDouble(event.substring(0, end)) : Double.MAX_VALUE;
        } catch (NumberFormatException ex) {
            return Double.MAX_VALUE;
        }
    }

    private static long sinceMillis(long clockStart) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - clockStart);
    }

    private static CommandProducer.Sent join(CompletableFuture<CommandProducer.Sent> sending) {
        try {
            return sending.get();
        } catch (ExecutionException ex) {
            var cause = ex.getCause() == null ? ex : ex.getCause();
            throw new IllegalStateException("sending the backlog failed: " + cause.getMessage(), cause);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
