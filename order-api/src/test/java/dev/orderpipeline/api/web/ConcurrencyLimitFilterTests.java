package dev.orderpipeline.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

class ConcurrencyLimitFilterTests {

    private static final int LIMIT = 3;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ConcurrencyLimitFilter filter =
            new ConcurrencyLimitFilter(LIMIT, () -> Duration.ofSeconds(5), meters);

    @Test
    void refusesTheRequestBeyondTheLimitAtOnceAndServesAgainWhenOneEnds() throws Exception {
        var inside = new CountDownLatch(LIMIT);
        var release = new CountDownLatch(1);
        var servlet = new jakarta.servlet.http.HttpServlet() {
            @Override
            protected void service(
                    jakarta.servlet.http.HttpServletRequest request,
                    jakarta.servlet.http.HttpServletResponse response) {
                inside.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            var held = new ArrayList<Future<MockHttpServletResponse>>();
            for (var i = 0; i < LIMIT; i++) {
                held.add(executor.submit(() -> serve("/api/orders", new MockFilterChain(servlet))));
            }
            assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

            var refused = serve("/api/orders", new MockFilterChain());

            assertThat(refused.getStatus()).isEqualTo(503);
            assertThat(refused.getHeader("Retry-After")).isEqualTo("5");
            assertThat(refused.getContentType()).startsWith("application/problem+json");
            var problem = JsonMapper.builder().build().readTree(refused.getContentAsByteArray());
            assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:overloaded");
            assertThat(meters.counter("http.server.requests.refused").count()).isEqualTo(1);
            assertThat(admitted()).isEqualTo(LIMIT);

            release.countDown();
            for (var request : held) {
                assertThat(request.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
            }
        }
        assertThat(serve("/api/orders", new MockFilterChain()).getStatus()).isEqualTo(200);
        assertThat(admitted()).isZero();
    }

    private double admitted() {
        return meters.get(ConcurrencyLimitFilter.ADMITTED).gauge().value();
    }

    private MockHttpServletResponse serve(String path, MockFilterChain chain) throws Exception {
        var request = new MockHttpServletRequest("POST", path);
        var response = new MockHttpServletResponse();
        filter.doFilter(request, response, chain);
        return response;
    }
}
