package dev.orderpipeline.lab.measure;

import dev.orderpipeline.lab.pipeline.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
public final class ResourceSampler implements AutoCloseable {

    /** A process to watch, by kind (samples of one kind add up). */
    public record Watched(String kind, long pid) {}

    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(200);

    private static final Logger log = LoggerFactory.getLogger(ResourceSampler.class);

    /** Sessions of the run's database waiting on a lock. */
    private static final String LOCK_WAITS = """
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
            """;

    private static final String WAL_POSITION = """
            SELECT pg_current_wal_lsn()::text
            """;

    private static final String WAL_WRITTEN_SINCE = """
            SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), ?::pg_lsn)::bigint
            """;

    private final List<Watched> watched;
    private final Database source;
    private final @Nullable Connection database;
    private final long postmasterPid;
    private final ScheduledExecutorService timer;

    // written by the timer thread only, read after it stopped; the database server's tree under pid 0
    private final Map<Long, Long> firstTicks = new HashMap<>();
    private final Map<Long, Long> lastTicks = new HashMap<>();
    private final Map<String, Long> rssMaxKiB = new HashMap<>();
    private long firstNanos;
    private long lastNanos;
    private boolean sessionsSampled;
    private double lockWaitSeconds;
    private @Nullable String walStart;
    private @Nullable Long walBytes;
    private int samples;

    private ResourceSampler(List<Watched> watched, Database source, @Nullable Connection database, long postmasterPid) {
        this.watched = List.copyOf(watched);
        this.source = source;
        this.database = database;
        this.postmasterPid = postmasterPid;
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            var thread = new Thread(runnable, "lab-resource-sampler");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Takes a first sample now and then one every {@code interval} until {@link #stop()}. */
    public static ResourceSampler start(List<Watched> processes, Database database, Duration interval) {
        Connection connection = null;
        var postmaster = -1L;
        try {
            connection = database.connect();
            if (database.isLocal()) {
                postmaster = postmasterOf(Database.backendPid(connection));
            }
        } catch (SQLException ex) {
            log.warn("Cannot sample the database's sessions: {}", ex.getMessage());
        }
        var sampler = new ResourceSampler(processes, database, connection, postmaster);
        sampler.walStart = sampler.wal(null);
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
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        sample();
        var written = walStart == null ? null : wal(walStart);
        walBytes = written == null ? null : Long.valueOf(written);
        close();
        return usage();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        if (database != null) {
            try {
                database.close();
            } catch (SQLException ex) {
                log.debug("Closing the sampling connection failed", ex);
            }
        }
    }

    private synchronized void sample() {
        try {
            var now = System.nanoTime();
            var seconds = samples == 0 ? 0 : (now - lastNanos) / 1e9;
            for (var process : watched) {
                ticks(process.pid(), ProcStat.read(process.pid()).map(ProcStat::ticks));
                ProcStat.residentKiB(process.pid()).ifPresent(rss -> rssMaxKiB.merge(process.kind(), rss, Math::max));
            }
            if (postmasterPid > 0) {
                ticks(0, databaseTicks());
            }
            sampleSessions(seconds);
            if (samples == 0) {
                firstNanos = now;
            }
            lastNanos = now;
            samples++;
        } catch (RuntimeException ex) {
            log.warn("A resource sample failed", ex);
        }
    }

    /** Notes the CPU ticks of {@code key} now. */
    private void ticks(long key, Optional<Long> ticks) {
        ticks.ifPresent(now -> {
            lastTicks.put(key, now);
            firstTicks.putIfAbsent(key, now);
        });
    }

    private void sampleSessions(double seconds) {
        if (database != null) {
            try (var statement = database.createStatement();
                    var rows = statement.executeQuery(LOCK_WAITS)) {
                rows.next();
                sessionsSampled = true;
                lockWaitSeconds += rows.getInt(1) * seconds;
            } catch (SQLException ex) {
                log.debug("Could not count the database's sessions", ex);
            }
        }
    }

    /**
     * The WAL position now, or with {@code since} the bytes written from that position on, as text; read on a session
     * of its own, so that a server restarted meanwhile (the chaos run's fault) still answers. {@code null} when the
     * server has no position to give (a standby) or cannot be reached.
     */
    private @Nullable String wal(@Nullable String since) {
        try (var connection = source.connect();
                var statement = connection.prepareStatement(since == null ? WAL_POSITION : WAL_WRITTEN_SINCE)) {
            if (since != null) {
                statement.setString(1, since);
            }
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        } catch (SQLException ex) {
            log.info("Cannot read the WAL (a standby?): WAL bytes will show as n/a: {}", ex.getMessage());
            return null;
        }
    }

    /** The server's whole tree: a backend that exited was reaped by the postmaster, whose children's time grew. */
    private Optional<Long> databaseTicks() {
        return ProcStat.read(postmasterPid)
                .map(postmaster -> postmaster.ticksWithReapedChildren()
                        + ProcStat.children(postmasterPid).stream()
                                .mapToLong(ProcStat::ticks)
                                .sum());
    }

    private synchronized ResourceUsage usage() {
        var seconds = (lastNanos - firstNanos) / 1e9;
        var kinds =
                watched.stream().collect(Collectors.groupingBy(Watched::kind, LinkedHashMap::new, Collectors.toList()));
        var processes = new ArrayList<ResourceUsage.ProcessUsage>();
        kinds.forEach((kind, members) -> {
            var used = members.stream().mapToLong(member -> used(member.pid())).sum();
            processes.add(new ResourceUsage.ProcessUsage(
                    kind, members.size(), round(rssMaxKiB.getOrDefault(kind, 0L) / 1024.0), cpuSeconds(used)));
        });
        var databaseUsage = new ResourceUsage.DatabaseUsage(
                firstTicks.containsKey(0L) && seconds > 0 ? cpuSeconds(used(0)) : null,
                sessionsSampled ? Math.round(lockWaitSeconds * 1000) / 1000.0 : null,
                walBytes);
        return new ResourceUsage(processes, databaseUsage, samples);
    }

    /** Ticks of {@code key} from the first sample to the last; 0 when it was never read. */
    private long used(long key) {
        var first = firstTicks.get(key);
        var last = lastTicks.get(key);
        return first == null || last == null ? 0 : last - first;
    }

    /** Whole clock ticks: at 100 per second, two decimals lose nothing. */
    private static double cpuSeconds(long ticks) {
        return Math.round(ticks * 1000.0 / ProcStat.TICKS_PER_SECOND) / 1000.0;
    }

    private static long postmasterOf(long backendPid) {
        var backend = ProcStat.read(backendPid).filter(stat -> stat.command().startsWith("postgres"));
        if (backend.isEmpty()) {
            log.info("PostgreSQL's processes are not visible here: database CPU will show as n/a");
            return -1;
        }
        return backend.get().parentPid();
    }

    private static double round(double value) {
        return Math.round(value * 10.0) / 10.0;
    }
}
