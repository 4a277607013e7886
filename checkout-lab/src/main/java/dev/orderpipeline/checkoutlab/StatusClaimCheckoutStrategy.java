package dev.orderpipeline.checkoutlab;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code status-claim}: the intermediate status of the outpost article, against the double click. Before the slow
 * part, the order is claimed with {@code UPDATE orders SET status = 'PROCESSING' WHERE id = :id AND status =
 * 'CREATED'}, committed at once; a second click finds it claimed and gets 409 without doing anything. After the
 * slow part, one READ COMMITTED transaction takes the stock with the conditional decrement (so the stock race is
 * closed the db-atomic way, not by the claim) and finishes PROCESSING to COMPLETED or REJECTED; it locks the
 * order first if still PROCESSING (orders before products, as everywhere) and guards the finish on PROCESSING.
 *
 * <p>Weakness: the claim and the finish are two commits. If the process dies between them (crash, kill, lost
 * connection during the slow part), the order stays PROCESSING: no double charge, but the buyer can neither
 * complete nor retry it until something outside this request (a sweeper with a timeout, an operator) resets it.
 * When the failure is an exception this request sees, it ends the claimed order REJECTED with CHECKOUT_FAILED
 * (guarded on PROCESSING, so a finish that did commit is never undone; nothing was taken or charged). It does not
 * hand the claim back to CREATED: a pipeline checkout of the same order may have found it PROCESSING meanwhile and
 * recorded its one command id as done, and an order back in CREATED could then never be decided.
 *
 * <p>The check-to-write delay is the slow part: after the claim and the read of the product, before the
 * transaction that decrements and finishes.
 */
@Component
final class StatusClaimCheckoutStrategy implements LabStrategy {

    static final String NAME = "status-claim";

    private static final Logger log = LoggerFactory.getLogger(StatusClaimCheckoutStrategy.class);

    private final StockRepository stock;
    private final OrderStatusRepository statuses;
    private final ReadCheckWrite readCheckWrite;
    private final CheckoutRecorder recorder;
    private final LabProperties properties;
    private final TransactionTemplate transaction;

    StatusClaimCheckoutStrategy(
            StockRepository stock,
            OrderStatusRepository statuses,
            ReadCheckWrite readCheckWrite,
            CheckoutRecorder recorder,
            LabProperties properties,
            PlatformTransactionManager transactions) {
        this.stock = stock;
        this.statuses = statuses;
        this.readCheckWrite = readCheckWrite;
        this.recorder = recorder;
        this.properties = properties;
        this.transaction = Transactions.readCommitted(transactions);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LabOrder checkout(LabOrder order, LabOptions options) {
        if (!statuses.claim(order.id())) {
            throw recorder.notCheckoutable(order.id());
        }
        try {
            var product = stock.read(order.productId());
            Pause.sleep(properties.delay(options));
            transaction.executeWithoutResult(status -> {
                recorder.lockOrder(order, LabStatus.PROCESSING);
                readCheckWrite.applyConditional(order, product, StatusWrite.IF_PROCESSING);
            });
        } catch (NotCheckoutableException ex) {
            // somebody else moved our claimed order; it is theirs now, and nothing of ours was committed
            throw ex;
        } catch (RuntimeException ex) {
            abandon(order, ex);
            throw ex;
        }
        return recorder.decided(order.id());
    }

    private void abandon(LabOrder order, RuntimeException failure) {
        try {
            var abandoned = statuses.abandonClaim(order.id());
            log.info(
                    "Order {}: checkout failed after its claim; {}",
                    order.id(),
                    abandoned ? "rejected with CHECKOUT_FAILED" : "claim already gone");
        } catch (RuntimeException ex) {
            failure.addSuppressed(ex);
            log.error("Order {}: checkout failed and could not be rejected; it stays PROCESSING", order.id(), ex);
        }
    }
}
