package dev.orderpipeline.api.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * At most {@link RequestLimits#maxConcurrent()} requests are served at once; the next one is answered 503 with {@code
 * Retry-After} at once, before its token is verified or anything else is done for it.
 *
 * <p>Requests run on virtual threads, so no thread pool bounds them any more: when a dependency slows down (the broker
 * gone, each checkout waiting out {@code max.block.ms}), requests pile up, each holding its buffers, until the heap
 * runs out (seen: order-api at 160 MB of heap died under 40 checkouts/s and their retries with the broker down for
 * 45 s). Refusing at a bound keeps the process up and tells clients when to come back. A request that goes
 * asynchronous ({@code Prefer: wait}) gives its place back as soon as its thread does: its wait is bounded on its own
 * ({@code orderpipeline.checkout.max-waiters}). The actuator is not counted: it is served on the management port
 * ({@code management.server.port}), by a server of its own that this filter is not part of, so probes and scraping
 * answer when the API is busiest.
 *
 * <p>Being a filter, it bounds what requests wait for, not what they hold: a request Tomcat has read holds its buffers
 * whether it is admitted here or refused. What bounds those is the number of connections ({@code
 * server.tomcat.max-connections}, in application.yml with its measurement).
 */
final class ConcurrencyLimitFilter extends OncePerRequestFilter {

    /** The gauge of requests holding a place now. */
    static final String ADMITTED = "http.server.requests.admitted";

    private final Semaphore permits;
    private final int limit;
    private final RetryAfterSetting retryAfter;
    private final Counter refused;

    ConcurrencyLimitFilter(int limit, RetryAfterSetting retryAfter, MeterRegistry meters) {
        this.permits = new Semaphore(limit);
        this.limit = limit;
        this.retryAfter = retryAfter;
        this.refused = Counter.builder("http.server.requests.refused")
                .description("Requests answered 503 at once because orderpipeline.requests.max-concurrent were in"
                        + " progress")
                .register(meters);
        Gauge.builder(ADMITTED, permits, available -> limit - available.availablePermits())
                .description("Requests holding one of orderpipeline.requests.max-concurrent places now (a request"
                        + " waiting asynchronously holds none)")
                .register(meters);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!permits.tryAcquire()) {
            refused.increment();
            response.setHeader(
                    HttpHeaders.RETRY_AFTER,
                    Long.toString(Math.max(1, retryAfter.retryAfter().toSeconds())));
            ProblemWriter.write(
                    request,
                    response,
                    ProblemKind.OVERLOADED.problem(
                            "The API is serving " + limit + " requests already; retry after Retry-After"));
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            permits.release();
        }
    }
}
