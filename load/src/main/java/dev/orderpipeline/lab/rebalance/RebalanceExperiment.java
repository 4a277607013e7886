package dev.orderpipeline.lab.rebalance;

import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.lab.backlog.Backlog;
import dev.orderpipeline.lab.backlog.CommandProducer;
import dev.orderpipeline.lab.backlog.LagFollower;
import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.backlog.OffsetSample;
import dev.orderpipeline.lab.backlog.StackSession;
import dev.orderpipeline.lab.backlog.WorkerFleet;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.ObjLongConsumer;
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
public record RebalanceExperiment(StackTarget target, RebalanceSettings settings, Progress progress) {

    public List<RebalanceRun> run() {
        var runs = new ArrayList<RebalanceRun>();
        var tag = UUID.randomUUID().toString().substring(0, 8);
        try (var session = new StackSession(target, progress)) {
            for (var scenario : settings.scenarios()) {
                for (var protocol : settings.protocols()) {
                    var run = runOne(session, tag + "-" + scenario + "-" + protocol, scenario, protocol);
                    progress.note(String.format(
                            Locale.ROOT,
                            "%s: group %s, moved %s, longest pause moved %.1f s, stayed %.1f s, %d duplicates%s",
                            run.label(),
                            run.groupType(),
                            run.moved(),
                            run.longestPauseMovedMillis() / 1000.0,
                            run.longestPauseStayedMillis() / 1000.0,
                            run.duplicates(),
                            run.invariants().violatedNote()));
                    runs.add(run);
                    session.fleet().stopAll();
                }
            }
        }
        return runs;
    }

    /** One run; {@code tag} names its group and its backlog. */
    private RebalanceRun runOne(StackSession session, String tag, String scenario, String protocol) {
        var label = scenario + " / " + protocol;
        progress.phase(label + ": fresh topic and workers", 0);
        session.watch().recreateCommandTopic(settings.partitions());
        var group = "lab-rebalance-" + tag;
        var arguments = List.of(
                "--orderpipeline.worker.group-id=" + group,
                "--orderpipeline.topics.command-partitions=" + settings.partitions(),
                "--spring.kafka.consumer.properties.group.protocol=" + protocol);
        session.join(
                group,
                arguments,
                scenario.equals(RebalanceSettings.ADD) ? 1 : 2,
                settings.warmup(),
                settings.timeout());
        var backlog = session.backlog("rebalance-" + tag, settings.keys(), settings.commands());
        var from = session.mark();
        progress.phase(label, backlog.size());
        var clockStart = System.nanoTime();
        var threshold = (long) Math.ceil(settings.eventAt() * backlog.size());
        var event = new Event(scenario, protocol, session.fleet(), arguments, clockStart, threshold);
        var sending = session.sendInBackground(backlog, settings.rate());
        var timeline = new LagFollower(session.watch(), group, settings.interval(), false, true)
                .follow(from.commands(), backlog.size(), clockStart, settings.timeout(), progress, event);
        return measured(session, group, event, backlog, from, timeline, StackSession.sent(sending));
    }

    /** What the run's timeline, results and database say, once its lag is zero. */
    private RebalanceRun measured(
            StackSession session,
            String group,
            Event event,
            Backlog backlog,
            StackSession.Marks from,
            LagTimeline timeline,
            CommandProducer.Sent sent) {
        event.noteAt(
                sent.seconds(),
                String.format(Locale.ROOT, "backlog of %d commands sent (%.0f/s)", sent.records(), sent.perSecond()));
        var endMillis = timeline.drainedAtMillis(backlog.size()).orElseThrow();
        var ownersAfter = timeline.samples().getLast().owners();
        var pauses = Pauses.of(timeline, event.atMillis, event.ownersBefore, event.killed, endMillis);
        var reassignedAt = pauses.reassignedAtMillis();
        if (reassignedAt != null) {
            event.noteAt(reassignedAt / 1000.0, "partitions seen with their final owners " + ownersAfter);
        }
        var groupType = session.watch().describe(group).type();
        var counted = duplicatesCounted(session.fleet());
        progress.phase(event.scenario + " / " + event.protocol + ": results and invariants", 0);
        var results = session.results(from, backlog, sent.sentAtMillis());
        var invariants = session.invariants(backlog);
        event.noteAt(endMillis / 1000.0, "lag zero");
        return new RebalanceRun(
                event.scenario,
                event.protocol,
                groupType,
                backlog.size(),
                endMillis / 1000.0,
                Math.round(backlog.size() * 10000.0 / endMillis) / 10.0,
                event.atMillis / 1000.0,
                event.readyMillis >= 0 ? event.readyMillis / 1000.0 : null,
                reassignedAt == null ? null : reassignedAt / 1000.0,
                event.ownersBefore,
                ownersAfter,
                pauses.moved(),
                pauses.longestMoved(),
                pauses.longestStayed(),
                event.killed,
                pauses.killedPartitions(),
                pauses.longestKilled(),
                pauses.gapBefore(),
                pauses.byPartition(),
                results.results(),
                results.duplicates(),
                backlog.size() - results.orders(),
                counted,
                results.endToEnd(),
                timeline.curve(),
                event.inOrder(),
                invariants);
    }

    /** What the surviving workers' duplicate counters say: a killed worker's count is lost with it. */
    private static long duplicatesCounted(WorkerFleet fleet) {
        return fleet.alive().stream()
                .mapToLong(worker -> fleet.duplicates(worker).orElse(0L))
                .sum();
    }

    /**
     * The scenario's event, fired from the lag follower once the given share of the backlog is committed: a worker
     * started (add), killed with SIGKILL (kill), or killed and started again at once under its name (restart); and
     * what happened when, in words.
     */
    private static final class Event implements ObjLongConsumer<OffsetSample> {

        private final String scenario;
        private final String protocol;
        private final WorkerFleet fleet;
        private final List<String> arguments;
        private final long clockStart;
        private final long threshold;
        private final List<Note> notes = new CopyOnWriteArrayList<>();
        private volatile long atMillis = -1;
        private volatile long readyMillis = -1;
        private volatile Map<Integer, String> ownersBefore = Map.of();
        private volatile @Nullable String killed;

        /** Something that happened, {@code seconds} after the run's start. */
        private record Note(double seconds, String what) {}

        Event(
                String scenario,
                String protocol,
                WorkerFleet fleet,
                List<String> arguments,
                long clockStart,
                long threshold) {
            this.scenario = scenario;
            this.protocol = protocol;
            this.fleet = fleet;
            this.arguments = arguments;
            this.clockStart = clockStart;
            this.threshold = threshold;
        }

        @Override
        public void accept(OffsetSample sample, long consumed) {
            if (atMillis < 0 && consumed >= threshold) {
                atMillis = sample.atMillis();
                ownersBefore = sample.owners();
                fire();
            }
        }

        private void fire() {
            if (scenario.equals(RebalanceSettings.ADD)) {
                var worker = fleet.start(arguments);
                noteNow("started " + worker.name());
                awaitReadyInBackground(worker);
                return;
            }
            var victim = fleet.alive().getLast();
            killed = victim.name();
            victim.kill();
            noteNow("killed " + victim.name() + " with SIGKILL");
            if (scenario.equals(RebalanceSettings.RESTART)) {
                // the same process description: same name, so the same client id and group instance id
                victim.start();
                noteNow("started " + victim.name() + " again under its name");
                awaitReadyInBackground(victim);
            }
        }

        /** Waits for the worker on a thread of its own, so that the lag is still read meanwhile, and notes when. */
        private void awaitReadyInBackground(AppProcess worker) {
            Thread.ofVirtual().start(() -> {
                try {
                    fleet.awaitReady(worker);
                    readyMillis = noteNow(worker.name() + " ready");
                } catch (IllegalStateException ex) {
                    noteNow(worker.name() + " did not get ready: " + ex.getMessage());
                }
            });
        }

        /** Notes what happened now; returns the time since the run's start. */
        private long noteNow(String what) {
            var millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - clockStart);
            noteAt(millis / 1000.0, what);
            return millis;
        }

        void noteAt(double seconds, String what) {
            notes.add(new Note(seconds, what));
        }

        /** The notes in time order, as {@code 12.4 s: killed lab-worker-2 with SIGKILL}. */
        List<String> inOrder() {
            return notes.stream()
                    .sorted(Comparator.comparingDouble(Note::seconds))
                    .map(note -> String.format(Locale.ROOT, "%.1f s: %s", note.seconds(), note.what()))
                    .toList();
        }
    }
}
