package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.api.checkout.CheckoutProperties;
import dev.orderpipeline.api.order.OrderNotFoundException;
import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.api.web.DatabaseFailures;
import dev.orderpipeline.api.web.DatabaseUnavailableException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionException;
import org.springframework.web.ErrorResponseException;

/**
 * Runs one lab checkout: loads the caller's order (404 for anyone else's, as production does), refuses one that is
 * not CREATED, lets the strategy decide, and times it all as {@code lab.checkout.requests}.
 */
@Service
final class LabCheckout {

    private static final Logger log = LoggerFactory.getLogger(LabCheckout.class);

    private final LabStrategies strategies;
    private final LabOrders orders;
    private final MeterRegistry meters;
    private final CheckoutProperties checkout;

    LabCheckout(LabStrategies strategies, LabOrders orders, MeterRegistry meters, CheckoutProperties checkout) {
        this.strategies = strategies;
        this.orders = orders;
        this.meters = meters;
        this.checkout = checkout;
    }

    LabCheckoutable checkout(UUID orderId, String strategyName, Caller caller, LabOptions options) {
        var strategy = strategies.named(strategyName);
        var started = System.nanoTime();
        var outcome = "error";
        try {
            LabCheckoutable decided = switch (loadCheckoutable(orderId, caller)) {
                case LabOrder order -> strategy.checkout(order, options);
                case LabCart cart -> strategy.checkout(cart, options);
            };
            outcome = decided.status().name().toLowerCase(Locale.ROOT);
            return decided;
        } catch (ErrorResponseException ex) {
            outcome = switch (ex.getStatusCode().value()) {
                case 404 -> "not_found";
                case 409 -> "conflict";
                case 503 -> "unavailable";
                default -> "error";
            };
            throw ex;
        } catch (DataAccessException | TransactionException ex) {
            if (DatabaseFailures.isMisuse(ex)) {
                throw ex;
            }
            outcome = "unavailable";
            DatabaseFailures.logFailure(
                    log, ex, "Checkout of order {} with strategy {} failed in the database", orderId, strategy.name());
            throw new DatabaseUnavailableException(
                            "The database failed during the checkout of order " + orderId + " (strategy "
                                    + strategy.name() + ")",
                            checkout.retryAfter(),
                            ex)
                    .with("orderId", orderId)
                    .with("strategy", strategy.name());
        } finally {
            Timer.builder("lab.checkout.requests")
                    .description("Lab checkout requests by strategy and outcome, from the order lookup to the answer")
                    .tag("strategy", strategy.name())
                    .tag("outcome", outcome)
                    .publishPercentileHistogram()
                    .register(meters)
                    .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    /** The caller's order, if CREATED: a fast refusal, not a guard; each strategy guards its own writes. */
    private LabCheckoutable loadCheckoutable(UUID orderId, Caller caller) {
        var order = orders.findOwned(orderId, caller.userId()).orElseThrow(() -> new OrderNotFoundException(orderId));
        if (order.status() != LabStatus.CREATED) {
            throw new NotCheckoutableException(order.id(), order.status());
        }
        return order;
    }
}
