package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import java.time.Duration;
import java.util.Locale;

/** A dependency stopped, left down for a while and started again on the same data: the broker, then PostgreSQL. */
final class Restarts {

    private Restarts() {}

    /** Seconds the stop took, the dependency was down and the start took. */
    private record Took(double stop, double down, double start) {}

    private static Took downAndUp(FaultRun run, double start, Duration down, Runnable stop, Runnable startAgain) {
        stop.run();
        var stopped = run.clock().now();
        FaultRun.pause(down);
        var starting = run.clock().now();
        startAgain.run();
        return new Took(stopped - start, starting - stopped, run.clock().now() - starting);
    }

    /** The broker stopped (controlled shutdown), left down for {@code brokerDown}. */
    static Done broker(FaultRun run, int number, double start) {
        var broker = run.stack()
                .broker()
                .orElseThrow(() -> new IllegalStateException("the stack uses an external Kafka cluster"));
        var took = downAndUp(run, start, run.settings().brokerDown(), broker::stop, broker::start);
        return run.done(String.format(
                Locale.ROOT,
                "controlled stop took %.1f s, down %.1f s, start (same data, same port) took %.1f s",
                took.stop(),
                took.down(),
                took.start()));
    }

    /**
     * PostgreSQL stopped (fast shutdown: sessions cut, open transactions rolled back, the port closed), left down for
     * {@code databaseDown}, started again on the same data directory and port.
     */
    static Done database(FaultRun run, int number, double start) {
        var postgres = run.stack()
                .postgres()
                .filter(Postgres::isRestartable)
                .orElseThrow(() -> new IllegalStateException(
                        "the stack's PostgreSQL is not an embedded one with a data directory of its own"));
        try {
            var took =
                    downAndUp(run, start, run.settings().databaseDown(), postgres::stopServer, postgres::startServer);
            return run.done(String.format(
                    Locale.ROOT,
                    "pg_ctl stop -m fast took %.1f s (sessions terminated, port closed), down %.1f s, start on the same"
                            + " data directory and port took %.1f s",
                    took.stop(),
                    took.down(),
                    took.start()));
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
