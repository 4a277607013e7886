package dev.orderpipeline.api.checkout;

import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How an order's live status is streamed ({@code GET /api/orders/{id}/events}, server-sent events).
 *
 * @param maxStreams how many streams this instance holds open at once. A stream holds no thread while it waits, but
 *     it holds its connection (one of {@code server.tomcat.max-connections}) and Tomcat's buffers for the request,
 *     as a waiting checkout does; beyond the bound a stream is refused with 503 {@code overloaded} and {@code
 *     Retry-After}
 * @param maxLifetime how long a stream stays open without a decision; then it ends, and the client, which reconnects
 *     after {@code reconnect-delay}, gets the order's state again and a stream of its own. Bounds what a client that
 *     went away silently holds
 * @param reconnectDelay what the stream tells the client to wait before it reconnects after the stream ended (the
 *     {@code retry} field of server-sent events)
 * @param heartbeat how often an open stream without news gets a comment line. Proxies and load balancers close a
 *     connection that stays silent past their idle timeout (often 60 s), and a client that went away without closing
 *     is found only by a write: the first write that fails ends the stream and gives its place back, so a vanished
 *     client holds a place for about a heartbeat, not the whole {@code max-lifetime}
 */
@ConfigurationProperties("orderpipeline.checkout.events")
@Validated
record CheckoutEventsProperties(
        @DefaultValue("100") @PositiveOrZero int maxStreams,
        @DefaultValue("1m") @DurationMin(seconds = 1) Duration maxLifetime,
        @DefaultValue("1s") @DurationMin(millis = 1) Duration reconnectDelay,
        @DefaultValue("15s") @DurationMin(millis = 100) Duration heartbeat) {}
