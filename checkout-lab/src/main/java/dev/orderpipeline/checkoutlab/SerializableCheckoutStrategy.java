package dev.orderpipeline.checkoutlab;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code serializable}: the naive read-check-write in a SERIALIZABLE transaction. PostgreSQL lets the transactions
 * run side by side and aborts one whose result could not have come from running them one at a time (SQLSTATE
 * 40001; a deadlock, 40P01, is treated alike). The strategy runs the whole transaction again after a short random
 * pause, up to the configured number of attempts; then it records REJECTED with SERIALIZATION_RETRIES_EXHAUSTED
 * in a READ COMMITTED transaction. Each attempt first locks the buyer's order if still CREATED (orders before
 * products, as everywhere), and the status write is guarded as well.
 *
 * <p>The check-to-write delay sits in every attempt after the read and the check, before the writes.
 */
@Component
final class SerializableCheckoutStrategy implements LabStrategy {

    static final String NAME = "serializable";

    private static final Logger log = LoggerFactory.getLogger(SerializableCheckoutStrategy.class);

    private final StockRepository stock;
    private final ReadCheckWrite readCheckWrite;
    private final CheckoutRecorder recorder;
    private final LabProperties properties;
    private final TransactionTemplate serializable;
    private final TransactionTemplate readCommitted;
    private final Counter retries;

    SerializableCheckoutStrategy(
            StockRepository stock,
            ReadCheckWrite readCheckWrite,
            CheckoutRecorder recorder,
            LabProperties properties,
            PlatformTransactionManager transactions,
            MeterRegistry meters) {
        this.stock = stock;
        this.readCheckWrite = readCheckWrite;
        this.recorder = recorder;
        this.properties = properties;
        this.serializable = Transactions.serializable(transactions);
        this.readCommitted = Transactions.readCommitted(transactions);
        this.retries = Retries.counter(meters, NAME);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LabOrder checkout(LabOrder order, LabOptions options) {
        var delay = properties.delay(options);
        var attempts = properties.serializableAttempts(options);
        for (var attempt = 1; attempt <= attempts; attempt++) {
            if (attempt > 1) {
                retries.increment();
                Pause.jitter(properties.retryPause());
            }
            try {
                serializable.executeWithoutResult(status -> {
                    // a retry after a double click's commit sees the order decided in its new snapshot
                    recorder.lockOrder(order, LabStatus.CREATED);
                    readCheckWrite.apply(order, stock.read(order.productId()), delay, StatusWrite.IF_CREATED);
                });
                return recorder.decided(order.id());
            } catch (RuntimeException ex) {
                // Spring translates 40001 and 40P01 to PessimisticLockingFailureException subclasses; the SQLSTATE
                // says it whatever the translation, also for a failure at commit
                if (!SqlStates.isRetryable(ex)) {
                    throw ex;
                }
                log.trace(
                        "Order {}: attempt {} of {} aborted ({})",
                        order.id(),
                        attempt,
                        attempts,
                        SqlStates.sqlState(ex));
            }
        }
        log.debug("Order {}: serialization failures on all {} attempts", order.id(), attempts);
        readCommitted.executeWithoutResult(status ->
                recorder.reject(order, LabRejectReason.SERIALIZATION_RETRIES_EXHAUSTED, StatusWrite.IF_CREATED));
        return recorder.decided(order.id());
    }
}
