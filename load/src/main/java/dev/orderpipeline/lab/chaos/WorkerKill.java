package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.chaos.ChaosJudge.Criterion;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * kill -9 of a checkout-worker, {@code workerKills} times (alternating between the first two), each restarted at
 * once as a supervisor would: the group rebalances.
 */
final class WorkerKill implements Fault {

    @Override
    public Duration planned(ChaosSettings settings) {
        return Duration.ofSeconds(50).plus(settings.recovery()).multipliedBy(settings.workerKills());
    }

    /** The kills must have cut through sagas for the cart criteria to say something about them. */
    @Override
    public List<Criterion> criteria() {
        return List.of(findings -> ChaosCriteria.cartsMidSaga(findings, FaultKind.WORKER_KILL));
    }

    @Override
    public void inject(FaultRun run) {
        var kills = run.settings().workerKills();
        for (var number = 1; number <= kills; number++) {
            run.progress().phase("kill -9 #" + number + " of " + kills, 0);
            run.recover(kill(run, number));
        }
    }

    /** kill -9 of worker {@code number} (1, 2, 1...), then started again at once and awaited. */
    private static FaultWindow kill(FaultRun run, int number) {
        return run.carryOut(FaultKind.WORKER_KILL, "kill -9 #" + number, start -> {
            var workers = run.mainWorkers();
            var worker = workers.get((number - 1) % Math.min(2, workers.size()));
            var pid = worker.pid();
            var exit = worker.kill();
            var killed = run.clock().now();
            worker.start();
            worker.awaitReady(run.stack().config().startupTimeout());
            return run.done(String.format(
                    Locale.ROOT,
                    "SIGKILL to %s (pid %d, exit code %d), started again at once as pid %d, ready %.1f s after the"
                            + " kill",
                    worker.name(),
                    pid,
                    exit,
                    worker.pid(),
                    run.clock().now() - killed));
        });
    }
}
