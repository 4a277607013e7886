package dev.orderpipeline.lab.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.lab.measure.StatusCounts;
import org.junit.jupiter.api.Test;

class PreparedCheckoutTests {

    @Test
    void readsTheStatusCodeOfTheAnswer() {
        assertThat(PreparedCheckout.status("HTTP/1.1 202 \r\nLocation: /api/orders/1\r\n\r\n"))
                .isEqualTo("202");
        assertThat(PreparedCheckout.status("HTTP/1.1 503 \r\nRetry-After: 1\r\n\r\n"))
                .isEqualTo("503");
    }

    @Test
    void tellsASoldOutRefusalFromOtherConflicts() {
        var soldOut = "HTTP/1.1 409 \r\nContent-Type: application/problem+json\r\n\r\n{\"type\":\"" + ApiClient.SOLD_OUT
                + "\",\"status\":409}";
        var other = "HTTP/1.1 409 \r\n\r\n{\"type\":\"urn:order-pipeline:problem:not-checkoutable\"}";

        assertThat(PreparedCheckout.status(soldOut)).isEqualTo(StatusCounts.SOLD_OUT);
        assertThat(PreparedCheckout.status(other)).isEqualTo("409");
    }

    @Test
    void tellsAnOutcomeUnknownFromOtherUnavailableAnswers() {
        var unknown = "HTTP/1.1 503 \r\nRetry-After: 1\r\n\r\n{\"type\":\"" + ApiClient.OUTCOME_UNKNOWN + "\"}";
        var shed = "HTTP/1.1 503 \r\n\r\n{\"type\":\"urn:order-pipeline:problem:overloaded\"}";

        assertThat(PreparedCheckout.status(unknown)).isEqualTo(StatusCounts.OUTCOME_UNKNOWN);
        assertThat(PreparedCheckout.status(shed)).isEqualTo("503");
    }

    @Test
    void anAnswerThatIsNotHttpIsABrokenConnection() {
        assertThat(PreparedCheckout.status("")).isEqualTo(StatusCounts.IO_ERROR);
        assertThat(PreparedCheckout.status("HTTP/1.1")).isEqualTo(StatusCounts.IO_ERROR);
    }
}
