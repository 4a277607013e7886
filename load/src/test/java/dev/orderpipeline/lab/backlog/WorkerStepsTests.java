package dev.orderpipeline.lab.backlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerStepsTests {

    private static final String SCRAPE = """
            # HELP checkout_batch_step_seconds Time spent in one step of applying or reporting a poll
            # TYPE checkout_batch_step_seconds summary
            checkout_batch_step_seconds_count{application="checkout-worker",step="commit"} 818
            checkout_batch_step_seconds_sum{application="checkout-worker",step="commit"} 4.25
            checkout_batch_step_seconds_count{application="checkout-worker",step="results"} 818
            checkout_batch_step_seconds_sum{application="checkout-worker",step="results"} 20.5
            checkout_batch_listener_seconds_count{application="checkout-worker"} 818
            checkout_batch_listener_seconds_sum{application="checkout-worker"} 60.0
            checkout_batch_size_records_count{application="checkout-worker"} 818
            checkout_batch_size_records_sum{application="checkout-worker"} 1000000.0
            checkout_commands_total{application="checkout-worker",outcome="duplicate"} 0.0
            """;

    @Test
    void readsTheStepsPollsAndRecordsOfAPrometheusScrape() {
        var steps = WorkerSteps.parse(SCRAPE);

        assertThat(steps.stepSeconds()).containsExactly(Map.entry("commit", 4.25), Map.entry("results", 20.5));
        assertThat(steps.listenerSeconds()).isEqualTo(60.0);
        assertThat(steps.polls()).isEqualTo(818);
        assertThat(steps.records()).isEqualTo(1_000_000);
    }

    @Test
    void addsUpWorkersAndCountsMissingMetersAsZero() {
        var sum = WorkerSteps.parse(SCRAPE).plus(WorkerSteps.parse("# nothing yet\n"));

        assertThat(sum.stepSeconds()).containsEntry("commit", 4.25);
        assertThat(sum.polls()).isEqualTo(818);
        assertThat(WorkerSteps.none().polls()).isZero();
    }
}
