package dev.orderpipeline.lab.group;

import static dev.orderpipeline.lab.group.GroupSettings.ADD;
import static dev.orderpipeline.lab.group.GroupSettings.NONE;
import static dev.orderpipeline.lab.group.GroupSettings.RESTART;

import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.lab.Experiment;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.backlog.LagFollower;
import dev.orderpipeline.lab.backlog.LagTimeline;
import dev.orderpipeline.lab.backlog.OffsetSample;
import dev.orderpipeline.lab.backlog.StackSession;
import dev.orderpipeline.lab.group.GroupSettings.Cell;
import dev.orderpipeline.lab.measure.CheckoutCost;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.report.Cells;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the grid. A cell with an event gets a fresh, empty command topic and a consumer group of its own; cells
 * without one share a group per protocol and partition count, which workers join one by one as the worker count
 * rises. The workers join, the group is stable and warmed up, then the backlog is sent: start-up and the rebalances
 * of joining stay out of the figures. When the given share of it is committed, a worker is started (add), killed
 * with SIGKILL (kill), or killed and started again at once under its name (restart); the group's offsets (and, with
 * an event, owners) are read every interval until the lag is zero.
 *
 * <p>Sent all at once (rate 0), a backlog faces the workers in full from the first second, as if it had been there
 * before. An event needs a steady rate the workers keep up with: a consumer drains a backlog's partitions in bursts
 * of one fetch each, seconds apart, which would hide a rebalance's pause among ordinary gaps; at a rate it keeps up
 * with, every partition moves at every poll and a pause stands out.
 */
public final class GroupExperiment implements Experiment<GroupSettings.Cell, GroupCell> {

    private static final Logger log = LoggerFactory.getLogger(GroupExperiment.class);

    private final GroupSettings settings;
    private final Progress progress;
    private final StackSession session;
    private final String tag = UUID.randomUUID().toString().substring(0, 8);
    private @Nullable Group group;
    private int cellNumber;

    private GroupExperiment(StackSession session, GroupSettings settings, Progress progress) {
        this.session = session;
        this.settings = settings;
        this.progress = progress;
    }

    /** The group the cells run against: its topic has {@code partitions}, its workers run {@code arguments}. */
    private record Group(String name, String protocol, int partitions, List<String> arguments) {}

    /** Runs the grid on a stack started without workers. */
    public static List<GroupCell> run(StackTarget target, GroupSettings settings, Progress progress) {
        try (var session = new StackSession(target, progress)) {
            return Experiment.run(new GroupExperiment(session, settings, progress), List.of(""), 1, "cell", progress);
        }
    }

    @Override
    public List<Cell> cells() {
        return settings.grid();
    }

    @Override
    public String label(String strategy, Cell cell, int repetition) {
        return GroupCell.label(cell.partitions(), cell.workers(), cell.keys().label(), cell.event(), cell.protocol());
    }

    @Override
    public GroupCell run(String strategy, Cell cell, int repetition, String label) {
        var event = cell.event();
        var number = tag + "-" + ++cellNumber;
        var current = group;
        if (current == null
                || !event.equals(NONE)
                || !current.protocol().equals(cell.protocol())
                || current.partitions() != cell.partitions()) {
            current = fresh(number, cell.protocol(), cell.partitions());
            group = current;
        }
        var members = event.equals(ADD) ? cell.workers() - 1 : cell.workers();
        if (session.alive().size() < members) {
            progress.phase(label + ": starting workers up to " + members, 0);
            session.join(current.name(), current.arguments(), members, settings.warmup(), settings.timeout());
        }
        return runCell(current, number, label, event, cell.workers(), cell.keys());
    }

    @Override
    public String describe(GroupCell cell) {
        var disruption = cell.disruption();
        return String.format(
                Locale.ROOT,
                "%s: %.0f commands/s, %d duplicates%s%s",
                cell.label(),
                cell.perSecond(),
                cell.duplicates(),
                disruption == null ? "" : ", longest pause moved " + disruption.longestMovedMillis() + " ms",
                Cells.violatedNote(cell.invariants()));
    }

    /** Stops every worker and recreates the command topic empty, for a group of its own. */
    private Group fresh(String tag, String protocol, int partitions) {
        session.stopAll();
        progress.phase("topic with " + partitions + " partition(s)", 0);
        session.watch().recreateCommandTopic(partitions);
        var name = "lab-group-" + tag;
        return new Group(
                name,
                protocol,
                partitions,
                List.of(
                        "--orderpipeline.worker.group-id=" + name,
                        "--orderpipeline.topics.command-partitions=" + partitions,
                        "--spring.kafka.consumer.properties.group.protocol=" + protocol));
    }

    private GroupCell runCell(Group group, String tag, String name, String event, int workers, KeyDistribution keys) {
        var backlog = session.backlog("group-" + tag, keys, settings.commands());
        var from = session.mark();
        var sampler = session.sample();
        progress.phase(name, backlog.size());
        var clockStart = System.nanoTime();
        var trigger = new Trigger(event, session, group.arguments(), clockStart, name, (long)
                Math.ceil(GroupSettings.EVENT_AT * backlog.size()));
        var sending = session.sendInBackground(backlog, settings.rate());
        var undisturbed = event.equals(NONE);
        var timeline = new LagFollower(session.watch(), group.name(), settings.lagInterval(), undisturbed, !undisturbed)
                .follow(from.commands(), backlog.size(), clockStart, settings.timeout(), progress, (sample, done) -> {
                    trigger.accept(sample, done);
                    if (sending.isCompletedExceptionally()) {
                        sending.join();
                    }
                });
        var resources = sampler.stop();
        var sent = StackSession.sent(sending);
        var endMillis = timeline.drainedAtMillis(backlog.size()).orElseThrow();
        var groupType = String.valueOf(session.watch().description(group.name()).type());
        var counted = session.alive().stream()
                .mapToLong(worker -> session.duplicates(worker).orElse(0L))
                .sum();
        progress.phase(name + ": results and invariants", 0);
        var results = session.results(from, backlog, sent.sentAtMillis());
        var invariants = session.invariants(backlog);
        return new GroupCell(
                group.partitions(),
                workers,
                keys.label(),
                event,
                group.protocol(),
                groupType,
                Math.round(backlog.size() * 10000.0 / endMillis) / 10.0,
                results.endToEnd(),
                GroupCell.recordsPerPartition(timeline),
                timeline.curve(),
                results.duplicates(),
                counted,
                invariants,
                CheckoutCost.of(resources, invariants.completed() + invariants.rejected()),
                undisturbed ? null : trigger.disruption(timeline, endMillis));
    }

    /**
     * The cell's event, fired from the lag follower once the given share of the backlog is committed: a worker
     * started (add), killed with SIGKILL (kill), or killed and started again at once under its name (restart), and
     * when the worker it started was ready. Without an event, every worker must stay alive.
     */
    private static final class Trigger {

        private final String event;
        private final StackSession fleet;
        private final List<String> arguments;
        private final long clockStart;
        private final String cell;
        private final long threshold;
        private final List<AppProcess> members;
        private volatile long atMillis = -1;
        private volatile long readyMillis = -1;
        private volatile Map<Integer, String> ownersBefore = Map.of();
        private volatile @Nullable String killed;

        Trigger(
                String event,
                StackSession fleet,
                List<String> arguments,
                long clockStart,
                String cell,
                long threshold) {
            this.event = event;
            this.fleet = fleet;
            this.arguments = arguments;
            this.clockStart = clockStart;
            this.cell = cell;
            this.threshold = threshold;
            members = fleet.alive();
        }

        void accept(OffsetSample sample, long consumed) {
            if (event.equals(NONE)) {
                StackSession.requireAlive(members, cell);
            } else if (atMillis < 0 && consumed >= threshold) {
                atMillis = sample.atMillis();
                ownersBefore = sample.owners();
                fire();
            }
        }

        private void fire() {
            if (event.equals(ADD)) {
                awaitReadyInBackground(fleet.start(arguments));
                return;
            }
            var victim = fleet.alive().getLast();
            killed = victim.name();
            victim.kill();
            if (event.equals(RESTART)) {
                // the same process description: same name, so the same client id and group instance id
                victim.start();
                awaitReadyInBackground(victim);
            }
        }

        /** Waits for the worker on a thread of its own, so that the lag is still read meanwhile, and keeps when. */
        private void awaitReadyInBackground(AppProcess worker) {
            Thread.ofVirtual().start(() -> {
                try {
                    fleet.awaitReady(worker);
                    readyMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - clockStart);
                } catch (IllegalStateException ex) {
                    // the report's "Ready at" reads n/a; the lag follower's timeout fails the cell if the group never
                    // drains
                    log.warn("{}: {} did not get ready", cell, worker.name(), ex);
                }
            });
        }

        /** What the event did, once the lag is zero at {@code endMillis}. */
        Disruption disruption(LagTimeline timeline, long endMillis) {
            return Disruption.of(timeline, atMillis, ownersBefore, killed, readyMillis, endMillis);
        }
    }
}
