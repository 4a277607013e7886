package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import java.time.Duration;
import java.util.Locale;

/** A dependency stopped, left down for a while and started again on the same data: the broker, then PostgreSQL. */
final class Restarts {

    private Restarts() {}

    /** {@code detail} is formatted with the seconds the stop took, the dependency was down and the start took. */
    private static Done downAndUp(
            FaultRun run, double start, Duration down, Runnable stop, Runnable startAgain, String detail) {
        stop.run();
        var stopped = run.clock().now();
        FaultRun.pause(down);
        var starting = run.clock().now();
        startAgain.run();
        return run.done(String.format(
                Locale.ROOT,
                detail,
                stopped - start,
                starting - stopped,
                run.clock().now() - starting));
    }

    static Done broker(FaultRun run, int number, double start) {
        var broker = run.stack()
                .broker()
                .orElseThrow(() -> new IllegalStateException("the stack uses an external Kafka cluster"));
        return downAndUp(
                run,
                start,
                run.settings().brokerDown(),
                broker::stop,
                broker::start,
                "controlled stop took %.1f s, down %.1f s, start (same data, same port) took %.1f s");
    }

    /** PostgreSQL stopped (fast shutdown: sessions cut, transactions rolled back), then started on the same data. */
    static Done database(FaultRun run, int number, double start) {
        var postgres = run.stack()
                .postgres()
                .filter(Postgres::isRestartable)
                .orElseThrow(() -> new IllegalStateException(
                        "the stack's PostgreSQL is not an embedded one with a data directory of its own"));
        try {
            return downAndUp(
                    run,
                    start,
                    run.settings().databaseDown(),
                    postgres::stopServer,
                    postgres::startServer,
                    "pg_ctl stop -m fast took %.1f s (sessions terminated, port closed), down %.1f s, start on the"
                            + " same data directory and port took %.1f s");
        } catch (RuntimeException ex) {
            // the later faults and the judge need it up
            if (!postgres.isServerRunning()) {
                try {
                    postgres.startServer();
                } catch (RuntimeException again) {
                    ex.addSuppressed(again);
                }
            }
            throw ex;
        }
    }
}
