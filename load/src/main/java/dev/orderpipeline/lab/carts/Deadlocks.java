package dev.orderpipeline.lab.carts;

import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * PostgreSQL's own count of the deadlocks it broke in the run's database ({@code pg_stat_database.deadlocks}):
 * read before and after a run, it says how many transactions the database aborted as deadlock victims, whatever
 * the application did with them afterwards.
 */
final class Deadlocks {

    private static final String DEADLOCKS = """
            SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()
            """;

    /**
     * A backend reports its statistics when it goes idle, at most once a second; two reads this far apart that agree
     * have seen every report of a run that has ended.
     */
    private static final long SETTLE_MILLIS = 1_100;

    private static final int MAX_READS = 6;

    private Deadlocks() {}

    /** The count now, once it has stopped changing (or after a few seconds). */
    static long settled(DataSource dataSource) {
        var last = read(dataSource);
        for (var reads = 1; reads < MAX_READS; reads++) {
            pause();
            var now = read(dataSource);
            if (now == last) {
                return now;
            }
            last = now;
        }
        return last;
    }

    private static long read(DataSource dataSource) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(DEADLOCKS);
                var rows = statement.executeQuery()) {
            return rows.next() ? rows.getLong(1) : 0;
        } catch (SQLException ex) {
            throw new IllegalStateException("could not read pg_stat_database.deadlocks", ex);
        }
    }

    private static void pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(SETTLE_MILLIS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the deadlock count", ex);
        }
    }
}
