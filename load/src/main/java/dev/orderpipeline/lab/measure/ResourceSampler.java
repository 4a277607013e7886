package dev.orderpipeline.lab.measure;

import dev.orderpipeline.lab.pipeline.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the processes under test while a run goes on: CPU time and resident memory of each app process from
 * {@code /proc/<pid>/stat} and {@code /status}, PostgreSQL's lock-waiting sessions of the run's database from
 * {@code pg_stat_activity}, the WAL the server wrote from start to stop, and the database server's CPU when it
 * runs on this machine: the postmaster's own and reaped children's time plus that of its live children, so backends
 * that come and go are all counted.
 */
public final class ResourceSampler {

    /** A process to watch, by kind (samples of one kind add up). */
    public record Watched(String kind, long pid) {}

    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(200);

    private static final Logger log = LoggerFactory.getLogger(ResourceSampler.class);

    /** Sessions of the run's database waiting on a lock. */
    private static final String LOCK_WAITS = """
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
            """;

    /** The WAL position in bytes from the server's first: it grows across restarts, so two give what was written. */
    private static final String WAL_POSITION = """
            SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint
            """;

    /** The key of the database server's whole process tree among the watched pids. */
    private static final long DATABASE_SERVER = 0;

    private final List<Watched> watched;
    private final Database source;
    private final @Nullable Connection sessions;
    private final long postmasterPid;
    private final @Nullable Long walStart;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("lab-resource-sampler").daemon().factory());

    // written by the timer thread only, read after it stopped
    private final Map<Long, Long> firstTicks = new HashMap<>();
    private final Map<Long, Long> lastTicks = new HashMap<>();
    private final Map<String, Long> rssMaxKiB = new HashMap<>();
    private long lastNanos = System.nanoTime();
    private @Nullable Double lockWaitSeconds;

    private ResourceSampler(List<Watched> watched, Database source) {
        this.watched = List.copyOf(watched);
        this.source = source;
        Connection connection = null;
        var postmaster = -1L;
        try {
            connection = source.connect();
            if (source.isLocal()) {
                var backend = ProcStat.read(Database.backendPid(connection))
                        .filter(stat -> stat.command().startsWith("postgres"));
                postmaster = backend.map(ProcStat::parentPid).orElse(-1L);
                if (backend.isEmpty()) {
                    log.info("PostgreSQL's processes are not visible here: database CPU will show as n/a");
                }
            }
        } catch (SQLException ex) {
            log.warn("Cannot sample the database's sessions: {}", ex.getMessage());
        }
        this.sessions = connection;
        this.postmasterPid = postmaster;
        this.walStart = walPosition();
    }

    /** Takes a first sample now and then one every {@code interval} until {@link #stop()}. */
    public static ResourceSampler start(List<Watched> processes, Database database, Duration interval) {
        var sampler = new ResourceSampler(processes, database);
        // a task given now still runs after a quick stop; a periodic one would be cancelled by it
        sampler.timer.execute(sampler::sample);
        sampler.timer.scheduleAtFixedRate(
                sampler::sample, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
        return sampler;
    }

    /** Takes a last sample and sums up. */
    public ResourceUsage stop() {
        timer.shutdown();
        try {
            if (!timer.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("The resource sampler did not stop within 10 s");
                timer.shutdownNow();
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        sample();
        var walEnd = walPosition();
        if (sessions != null) {
            try {
                sessions.close();
            } catch (SQLException ex) {
                log.debug("Closing the sampling connection failed", ex);
            }
        }
        return usage(walStart == null || walEnd == null ? null : walEnd - walStart);
    }

    private synchronized void sample() {
        try {
            var now = System.nanoTime();
            for (var process : watched) {
                ProcStat.read(process.pid()).ifPresent(stat -> ticks(process.pid(), stat.ticks()));
                ProcStat.residentKiB(process.pid()).ifPresent(rss -> rssMaxKiB.merge(process.kind(), rss, Math::max));
            }
            if (postmasterPid > 0) {
                // the server's whole tree: a backend that exited was reaped by the postmaster, whose children's time
                // grew
                ProcStat.read(postmasterPid)
                        .ifPresent(postmaster -> ticks(
                                DATABASE_SERVER,
                                postmaster.ticks()
                                        + postmaster.reapedChildrenTicks()
                                        + ProcessHandle.of(postmasterPid).stream()
                                                .flatMap(ProcessHandle::children)
                                                .flatMap(child -> ProcStat.read(child.pid()).stream())
                                                .mapToLong(ProcStat::ticks)
                                                .sum()));
            }
            if (sessions != null) {
                // lock waits in session-seconds, estimated: the sessions waiting on a lock now, as if they had waited
                // since the previous sample
                try (var statement = sessions.createStatement();
                        var rows = statement.executeQuery(LOCK_WAITS)) {
                    rows.next();
                    var waited = rows.getInt(1) * (now - lastNanos) / 1e9;
                    lockWaitSeconds = (lockWaitSeconds == null ? 0 : lockWaitSeconds) + waited;
                } catch (SQLException ex) {
                    log.debug("Could not count the database's sessions", ex);
                }
            }
            lastNanos = now;
        } catch (RuntimeException ex) {
            log.warn("A resource sample failed", ex);
        }
    }

    private void ticks(long key, long now) {
        lastTicks.put(key, now);
        firstTicks.putIfAbsent(key, now);
    }

    /**
     * Read on a session of its own, so that a server restarted meanwhile (the chaos run's fault) still answers;
     * {@code null} when the server has no position to give (a standby) or cannot be reached.
     */
    private @Nullable Long walPosition() {
        try (var connection = source.connect();
                var statement = connection.createStatement();
                var rows = statement.executeQuery(WAL_POSITION)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException ex) {
            log.info("Cannot read the WAL (a standby?): WAL bytes will show as n/a: {}", ex.getMessage());
            return null;
        }
    }

    private synchronized ResourceUsage usage(@Nullable Long walBytes) {
        var processes = watched.stream()
                .collect(Collectors.groupingBy(Watched::kind, LinkedHashMap::new, Collectors.toList()))
                .entrySet()
                .stream()
                .map(kind -> new ResourceUsage.ProcessUsage(
                        kind.getKey(),
                        Math.round(rssMaxKiB.getOrDefault(kind.getKey(), 0L) / 102.4) / 10.0,
                        cpuSeconds(kind.getValue().stream()
                                .mapToLong(member -> used(member.pid()))
                                .sum())))
                .toList();
        var database = new ResourceUsage.DatabaseUsage(
                firstTicks.containsKey(DATABASE_SERVER) ? cpuSeconds(used(DATABASE_SERVER)) : null,
                lockWaitSeconds == null ? null : Math.round(lockWaitSeconds * 1000) / 1000.0,
                walBytes);
        return new ResourceUsage(processes, database);
    }

    /** Ticks of {@code key} from the first sample to the last; 0 when it was never read. */
    private long used(long key) {
        return lastTicks.getOrDefault(key, 0L) - firstTicks.getOrDefault(key, 0L);
    }

    /** Whole clock ticks: at 100 per second, two decimals lose nothing. */
    private static double cpuSeconds(long ticks) {
        return Math.round(ticks * 1000.0 / ProcStat.TICKS_PER_SECOND) / 1000.0;
    }
}
