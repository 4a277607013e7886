package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.order.OrderStatus;
import dev.orderpipeline.api.web.Caller;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class CheckoutController {

    private final CheckoutService checkout;
    private final CheckoutProperties properties;

    CheckoutController(CheckoutService checkout, CheckoutProperties properties) {
        this.checkout = checkout;
        this.properties = properties;
    }

    /**
     * 200 with the final order when the strategy decided it (or the awaited decision came in time), 202 with where
     * to poll when the checkout was handed on.
     *
     * <p>{@code delayMs} and {@code maxAttempts} are the lab's per-request knobs: the pause between a strategy's
     * read and its write (a slow payment call), and the retry limit of the retrying strategies. Without them the
     * configured values apply.
     */
    @PostMapping("/api/orders/{id}/checkout")
    ResponseEntity<Object> checkout(
            Caller caller,
            @PathVariable UUID id,
            @RequestParam(defaultValue = KafkaCheckoutStrategy.NAME) String strategy,
            @RequestHeader(name = PreferWait.PREFER, required = false) @Nullable String prefer,
            @RequestParam(required = false) @Nullable @Min(0) @Max(CheckoutOptions.MAX_DELAY_MILLIS) Integer delayMs,
            @RequestParam(required = false) @Nullable @Min(1) @Max(CheckoutOptions.MAX_ATTEMPTS) Integer maxAttempts) {
        var options = new CheckoutOptions(
                PreferWait.parse(prefer, properties.maxWait()),
                delayMs == null ? null : Duration.ofMillis(delayMs),
                maxAttempts);
        var reply = checkout.checkout(id, strategy, caller, options);
        return switch (reply) {
            case CheckoutReply.Decided decided ->
                preferenceApplied(ResponseEntity.ok(), reply).body(decided.order());
            case CheckoutReply.Accepted accepted ->
                preferenceApplied(
                                ResponseEntity.accepted().location(URI.create("/api/orders/" + accepted.orderId())),
                                reply)
                        .body(new CheckoutAccepted(accepted.orderId(), accepted.commandId(), accepted.status()));
        };
    }

    private static ResponseEntity.BodyBuilder preferenceApplied(
            ResponseEntity.BodyBuilder response, CheckoutReply reply) {
        var waited = reply.waited();
        return waited == null ? response : response.header(PreferWait.PREFERENCE_APPLIED, PreferWait.applied(waited));
    }

    /** Body of a 202: the command that carries the checkout, and the order's status so far. */
    record CheckoutAccepted(UUID orderId, UUID commandId, OrderStatus status) {}
}
