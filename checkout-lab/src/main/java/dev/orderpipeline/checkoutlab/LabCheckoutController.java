package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.api.web.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The lab's checkout: the production path with a {@code strategy} parameter. Spring prefers a mapping with a
 * parameter condition over the same path without one, so with the lab on a request that names a strategy comes
 * here and every other checkout still goes to the pipeline's controller, which knows nothing of this one.
 */
@RestController
@Tag(name = "lab", description = "The lab's database-lock strategies and what it reads to judge a run")
class LabCheckoutController {

    private final LabCheckout checkout;

    LabCheckoutController(LabCheckout checkout) {
        this.checkout = checkout;
    }

    @PostMapping(path = "/api/orders/{id}/checkout", params = "strategy", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(
            operationId = "labCheckoutOrder",
            summary = "Check out an order with one of the lab's database-lock strategies",
            description = "Decides one of the caller's CREATED orders in the request with the named strategy and"
                    + " answers 200 with the order COMPLETED or REJECTED. Some strategies are wrong on purpose"
                    + " (naive, naive-tx; app-lock beside a second writer): this exists only while the lab is on.")
    LabCheckoutable checkout(
            Caller caller,
            @Parameter(description = "The order's id") @PathVariable UUID id,
            @Parameter(
                            description =
                                    "naive, naive-tx, app-lock, db-atomic, for-update, optimistic, serializable or"
                                            + " status-claim for an order of one product; cart-for-update or"
                                            + " cart-for-update-unsorted for a cart (case-insensitive)")
                    @RequestParam
                    String strategy,
            @Parameter(
                            description = "Pause in milliseconds between the strategy's read (or lock) and its write,"
                                    + " standing for a slow payment call; the cart strategies spend it after each"
                                    + " product's lock. Default: the configured one (0).")
                    @RequestParam(required = false)
                    @Nullable
                    @Min(0)
                    @Max(LabOptions.MAX_DELAY_MILLIS)
                    Integer delayMs,
            @Parameter(
                            description = "Attempts of the retrying strategies (optimistic, serializable; the cart"
                                    + " strategies after a deadlock) before they reject the order. Default: the"
                                    + " configured one (300; 10 for the cart strategies).")
                    @RequestParam(required = false)
                    @Nullable
                    @Min(1)
                    @Max(LabOptions.MAX_ATTEMPTS)
                    Integer maxAttempts) {
        var options = new LabOptions(delayMs == null ? null : Duration.ofMillis(delayMs), maxAttempts);
        return checkout.checkout(id, strategy, caller, options);
    }
}
