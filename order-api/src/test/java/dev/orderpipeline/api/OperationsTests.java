package dev.orderpipeline.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What operators and the load runner read: probes and Prometheus metrics. */
class OperationsTests extends ApiTestSupport {

    @Test
    void answersTheReadinessAndLivenessProbes() {
        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
    }

    @Test
    void exposesTheCheckoutTimerWithAHistogram() {
        var alice = newUser();
        var orderId = createOrderId(alice);
        assertThat(api.post("/api/orders/" + orderId + "/checkout", null, USER, alice)
                        .status())
                .isEqualTo(202);

        var scrape = api.send("GET", "/actuator/prometheus", null, "text/plain", "Accept", "text/plain");

        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.body())
                .contains("checkout_requests_seconds_bucket{")
                .containsPattern("checkout_requests_seconds_count\\{[^}]*outcome=\"accepted\"[^}]*strategy=\"kafka\"")
                .contains("checkout_waiters");
    }
}
