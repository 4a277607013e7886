package dev.orderpipeline.checkoutlab;

import dev.orderpipeline.api.order.LineStatus;
import dev.orderpipeline.checkoutlab.MultiProductReservation.LockOrder;
import dev.orderpipeline.contract.CartLine;
import dev.orderpipeline.contract.RejectReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The cart strategies: a cart checked out in one READ COMMITTED transaction with {@code SELECT ... FOR UPDATE} on
 * each of its products, the multi-row version of {@code for-update}.
 *
 * <ul>
 *   <li>{@code cart-for-update} locks the products sorted by id (PostgreSQL's uuid order): one global order, so two
 *       carts of the same products queue instead of deadlocking.
 *   <li>{@code cart-for-update-unsorted} locks them in line order, the classic review finding: two carts that list
 *       the same products in opposite orders each hold a row the other waits for, and PostgreSQL aborts one with
 *       40P01 after {@code deadlock_timeout}. The victim is rolled back whole and run again, up to the strategy's
 *       attempts ({@code maxAttempts}, {@code orderpipeline.lab.cart-max-attempts}); when they run out the cart is
 *       REJECTED with DEADLOCK_RETRIES_EXHAUSTED and its lines CANCELLED.
 * </ul>
 *
 * <p>Both take their locks in the order every writer of these rows does (the worker's saga included): the order row
 * if still CREATED, then its lines if all still PENDING (by line number), then the products. Then either every line
 * is covered and each product is decremented with the guarded {@code UPDATE}, every line SOLD, the order COMPLETED
 * with one payment of the lines' amounts; or the uncovered lines are REFUSED, the others CANCELLED (nothing taken),
 * and the order REJECTED with INSUFFICIENT_STOCK. Aborted transactions are counted in {@code lab.checkout.aborted}
 * and retries in {@code lab.checkout.retries}, by strategy.
 *
 * <p>The check-to-write delay is spent after each product's lock, standing for the work a checkout does per line;
 * it widens the window in which two carts each hold one row the other needs.
 */
@Component
final class CartForUpdateCheckouts {

    static final String SORTED = "cart-for-update";
    static final String UNSORTED = "cart-for-update-unsorted";

    private static final Logger log = LoggerFactory.getLogger(CartForUpdateCheckouts.class);

    private final CartLines lines;
    private final StockRepository stock;
    private final PaymentRepository payments;
    private final CheckoutRecorder recorder;
    private final LabOrders orders;
    private final LabProperties properties;
    private final MeterRegistry meters;
    private final TransactionTemplate transaction;

    CartForUpdateCheckouts(
            CartLines lines,
            StockRepository stock,
            PaymentRepository payments,
            CheckoutRecorder recorder,
            LabOrders orders,
            LabProperties properties,
            MeterRegistry meters,
            PlatformTransactionManager transactions) {
        this.lines = lines;
        this.stock = stock;
        this.payments = payments;
        this.recorder = recorder;
        this.orders = orders;
        this.properties = properties;
        this.meters = meters;
        this.transaction = Transactions.readCommitted(transactions);
    }

    @Bean
    LabStrategy cartForUpdateStrategy() {
        return new Strategy(SORTED, LockOrder.BY_ID);
    }

    @Bean
    LabStrategy cartForUpdateUnsortedStrategy() {
        return new Strategy(UNSORTED, LockOrder.AS_GIVEN);
    }

    /** One of the two, by the order in which it locks the products. */
    private final class Strategy implements LabStrategy {

        private final String name;
        private final LockOrder lockOrder;
        private final Counter retries;
        private final Counter aborted;

        Strategy(String name, LockOrder lockOrder) {
            this.name = name;
            this.lockOrder = lockOrder;
            this.retries = Retries.counter(meters, name);
            this.aborted = Retries.aborted(meters, name);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public LabOrder checkout(LabOrder order, LabOptions options) {
            throw LabProblem.notApplicable(name, order.id(), "checks out carts; the order is of one product");
        }

        @Override
        public LabCart checkout(LabCart cart, LabOptions options) {
            var delay = properties.delay(options);
            var attempts = properties.cartAttempts(options);
            for (var attempt = 1; attempt <= attempts; attempt++) {
                if (attempt > 1) {
                    retries.increment();
                    Pause.jitter(properties.retryPause());
                }
                try {
                    // the answer is read in the deciding transaction: a checkout that answers an error decided nothing
                    return inTransaction(() -> {
                        decide(cart, delay);
                        return decided(cart);
                    });
                } catch (RuntimeException ex) {
                    if (!SqlStates.isDeadlock(ex)) {
                        throw ex;
                    }
                    aborted.increment();
                    log.debug("Cart {}: attempt {} of {} aborted as a deadlock victim", cart.id(), attempt, attempts);
                }
            }
            log.debug("Cart {}: deadlock victim on all {} attempts", cart.id(), attempts);
            return inTransaction(() -> {
                lockCart(cart);
                lines.cancelPending(cart.id());
                recorder.finish(
                        cart.id(),
                        LabStatus.REJECTED,
                        LabRejectReason.DEADLOCK_RETRIES_EXHAUSTED,
                        StatusWrite.IF_CREATED);
                return decided(cart);
            });
        }

        private LabCart inTransaction(Supplier<LabCart> work) {
            return Objects.requireNonNull(transaction.execute(status -> work.get()));
        }

        private void decide(LabCart cart, Duration delay) {
            var pending = lockCart(cart);
            var locking = new ArrayList<>(pending);
            if (lockOrder == LockOrder.BY_ID) {
                locking.sort(Comparator.comparing(CartLine::productId, MultiProductReservation.DATABASE_ORDER));
            }
            var products = new HashMap<Integer, ProductStock>();
            for (var line : locking) {
                products.put(line.lineNo(), stock.readForUpdate(line.productId()));
                Pause.sleep(delay);
            }
            var uncovered = pending.stream()
                    .filter(line -> !product(products, line).covers(line.quantity()))
                    .toList();
            if (uncovered.isEmpty()) {
                sell(cart, pending, products);
            } else {
                refuse(cart, pending, uncovered);
            }
        }

        /** Locks the order if CREATED, then its lines if every one is still PENDING, and returns those lines. */
        private List<CartLine> lockCart(LabCart cart) {
            recorder.lockOrder(cart.id(), LabStatus.CREATED);
            var pending = lines.lockPending(cart.id());
            if (pending.size() != cart.lines().size()) {
                throw NotCheckoutableException.inPipeline(cart.id());
            }
            return pending;
        }

        private void sell(LabCart cart, List<CartLine> pending, Map<Integer, ProductStock> products) {
            var amount = BigDecimal.ZERO;
            for (var line : pending) {
                // under the row lock the guard cannot fail; it stays in the statement all the same
                if (!stock.decrementIfAvailable(line.productId(), line.quantity())) {
                    throw new IllegalStateException(
                            "product " + line.productId() + " changed under the lock of cart " + cart.id());
                }
                lines.decide(cart.id(), line, LineStatus.SOLD, null);
                amount = amount.add(product(products, line).price().multiply(BigDecimal.valueOf(line.quantity())));
            }
            recorder.finish(cart.id(), LabStatus.COMPLETED, null, StatusWrite.IF_CREATED);
            payments.capture(cart.id(), amount);
        }

        private void refuse(LabCart cart, List<CartLine> pending, List<CartLine> uncovered) {
            for (var line : pending) {
                if (uncovered.contains(line)) {
                    lines.decide(cart.id(), line, LineStatus.REFUSED, RejectReason.INSUFFICIENT_STOCK);
                } else {
                    lines.decide(cart.id(), line, LineStatus.CANCELLED, null);
                }
            }
            recorder.finish(cart.id(), LabStatus.REJECTED, LabRejectReason.INSUFFICIENT_STOCK, StatusWrite.IF_CREATED);
        }

        private static ProductStock product(Map<Integer, ProductStock> products, CartLine line) {
            var product = products.get(line.lineNo());
            if (product == null) {
                throw new IllegalStateException("line " + line.lineNo() + " was not locked");
            }
            return product;
        }

        private LabCart decided(LabCart cart) {
            return orders.findCart(cart.id())
                    .orElseThrow(() -> new IllegalStateException("cart " + cart.id() + " vanished during checkout"));
        }
    }
}
