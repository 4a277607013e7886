package dev.orderpipeline.lab.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.measure.StatusCounts;
import org.junit.jupiter.api.Test;

class BurstTests {

    private static final String[] STATUSES = {
        "202",
        "200",
        "409",
        StatusCounts.SOLD_OUT,
        StatusCounts.SOLD_OUT,
        "503",
        StatusCounts.TIMEOUT,
        StatusCounts.OUTCOME_UNKNOWN
    };

    private final Burst burst = new Burst(0, new long[STATUSES.length], new long[STATUSES.length], STATUSES.clone());

    @Test
    void countsASoldOutAsAnAnswerWhoseOrderStaysOpen() {
        assertThat(burst.soldOut()).isEqualTo(2);
        // the 503, the timeout and the outcome unknown: a sold out is an answer
        assertThat(burst.unanswered()).isEqualTo(3);
        assertThat(burst.refused(3)).isFalse();
        assertThat(burst.refused(5)).isTrue();
        assertThat(burst.refused(7)).isFalse();
        // the sold outs and the 503; the orders of the timeout and the outcome unknown may still be decided
        assertThat(burst.staysOpen()).isEqualTo(3);
        assertThat(burst.statusCounts())
                .containsEntry(StatusCounts.SOLD_OUT, 2L)
                .containsEntry("409", 1L);
    }
}
