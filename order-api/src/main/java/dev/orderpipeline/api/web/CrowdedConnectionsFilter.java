package dev.orderpipeline.api.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.LongSupplier;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Closes a connection after its answer while the server is crowded: above {@link RequestLimits#keepAliveBelow()}
 * open connections, each answer carries {@code Connection: close}, and Tomcat closes the connection once it is
 * written. A kept-alive connection whose client has its answer holds one of {@code server.tomcat.max-connections}
 * idle until the keep-alive timeout (60 s), while the next buyers wait in the kernel's accept queue for a place: in a
 * flash sale every buyer has one request to make, and its place is worth more to the next buyer than a reuse is to
 * it. Below the mark connections stay alive, as clients that make many requests want.
 */
final class CrowdedConnectionsFilter extends OncePerRequestFilter {

    private final LongSupplier openConnections;
    private final int keepAliveBelow;
    private final Counter closed;

    CrowdedConnectionsFilter(LongSupplier openConnections, int keepAliveBelow, MeterRegistry meters) {
        this.openConnections = openConnections;
        this.keepAliveBelow = keepAliveBelow;
        this.closed = Counter.builder("http.server.connections.closed-crowded")
                .description("Answers that closed their connection because more than"
                        + " orderpipeline.requests.keep-alive-below connections were open")
                .register(meters);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (openConnections.getAsLong() > keepAliveBelow) {
            // set before the answer is written, refusals included; Tomcat honours it and closes after the response
            response.setHeader(HttpHeaders.CONNECTION, "close");
            closed.increment();
        }
        chain.doFilter(request, response);
    }
}
