package dev.orderpipeline.api.checkout;

import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.api.web.DatabaseUnavailableException;
import dev.orderpipeline.api.web.ProblemException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.InvalidDataAccessResourceUsageException;
import org.springframework.dao.TypeMismatchDataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionException;

/** Runs one checkout: picks the strategy, does the shared steps, lets the strategy decide, and times it all. */
@Service
final class CheckoutService {

    private static final Logger log = LoggerFactory.getLogger(CheckoutService.class);

    private final CheckoutStrategies strategies;
    private final CheckoutSteps steps;
    private final MeterRegistry meters;
    private final CheckoutProperties properties;

    CheckoutService(
            CheckoutStrategies strategies, CheckoutSteps steps, MeterRegistry meters, CheckoutProperties properties) {
        this.strategies = strategies;
        this.steps = steps;
        this.meters = meters;
        this.properties = properties;
    }

    CheckoutReply checkout(UUID orderId, String strategyName, Caller caller, CheckoutOptions options) {
        var strategy = strategies.named(strategyName);
        var started = System.nanoTime();
        var outcome = "error";
        try {
            var order = steps.loadCheckoutable(orderId, caller);
            var reply = strategy.checkout(order, options);
            outcome = reply.outcome();
            return reply;
        } catch (ProblemException ex) {
            outcome = switch (ex.kind().status()) {
                case NOT_FOUND -> "not_found";
                case CONFLICT -> "conflict";
                case SERVICE_UNAVAILABLE -> "unavailable";
                default -> "error";
            };
            throw ex;
        } catch (DataAccessException | TransactionException ex) {
            if (isBug(ex)) {
                throw ex;
            }
            outcome = "unavailable";
            log.warn("Checkout of order {} with strategy {} failed in the database", orderId, strategy.name(), ex);
            throw new DatabaseUnavailableException(
                            "The database failed during the checkout of order " + orderId + " (strategy "
                                    + strategy.name() + ")",
                            properties.retryAfter(),
                            ex)
                    .with("orderId", orderId)
                    .with("strategy", strategy.name());
        } finally {
            Timer.builder("checkout.requests")
                    .description("Checkout requests by strategy and outcome, from the order lookup to the answer")
                    .tag("strategy", strategy.name())
                    .tag("outcome", outcome)
                    .publishPercentileHistogram()
                    .register(meters)
                    .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    /** Failures that say our SQL or our use of the API is wrong: a 500, not the database's fault. */
    private static boolean isBug(RuntimeException ex) {
        return ex instanceof InvalidDataAccessResourceUsageException
                || ex instanceof InvalidDataAccessApiUsageException
                || ex instanceof IncorrectResultSizeDataAccessException
                || ex instanceof TypeMismatchDataAccessException;
    }
}
