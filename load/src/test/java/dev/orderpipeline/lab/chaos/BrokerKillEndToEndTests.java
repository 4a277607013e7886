package dev.orderpipeline.lab.chaos;

import static dev.orderpipeline.lab.chaos.ChaosStacks.assertBooksBalance;
import static dev.orderpipeline.lab.chaos.ChaosStacks.assertHolds;
import static dev.orderpipeline.lab.chaos.ChaosStacks.phase;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/** The broker kill of the chaos experiment, end to end, on a cluster of three brokers of its own. */
@Order(2) // among the end-to-end classes: the longest start first
class BrokerKillEndToEndTests {

    /**
     * On a cluster of three brokers , the broker that leads the most command partitions killed
     * with SIGKILL under load with carts: the followers take over, nothing accepted is lost or decided twice, the API
     * answers 202 or 503, and the broker started again rejoins every ISR.
     */
    @Test
    void aBrokerKilledOnAThreeBrokerClusterLosesNoAcceptedCheckoutAndRejoinsTheIsr(
            @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path workDirectory) throws IOException {
        // one worker: the brokers fail over here, not the workers
        try (var cluster = ChaosStacks.start(workDirectory, 3, 1)) {
            var run = ChaosStacks.run(cluster, List.of(FaultKind.BROKER_KILL), ChaosStacks.RATE, 0.3);

            assertHolds(run);
            var takeover = Objects.requireNonNull(run.faults().getFirst().takeover());
            assertThat(takeover.rejoinedAfter()).isNotNull();
            assertThat(takeover.partitions())
                    .isNotEmpty()
                    .allSatisfy(stall -> assertThat(stall.longestStall()).isNotNull());
            assertThat(cluster.stack().cluster().orElseThrow().brokers())
                    .allSatisfy(broker -> assertThat(broker.isRunning()).isTrue());
            var outage = phase(run, FaultKind.BROKER_KILL);
            assertThat(outage.serverErrors()).isZero();
            assertThat(outage.other()).isZero();
            assertBooksBalance(cluster, run);
        }
    }
}
