package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiClient;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A lab strategy is not the product's only writer: the pipeline's worker decrements the same row with a statement
 * of its own, knowing nothing of the lab. Here the worker's commit (its decrement, its COMPLETED order of 5 and the
 * payment, in one transaction) lands inside a lab checkout's check-to-write delay. Optimistic's version token is
 * the row's {@code xmin}, which that write changes, so its versioned write misses and it retries on the new stock;
 * naive-tx, which writes back what it read, wipes the worker's decrement out.
 */
class OptimisticBesideAWriterTests extends LabTestSupport {

    private static final int STOCK = 10;
    private static final int WORKER_QUANTITY = 5;
    private static final String SLOW_CALL = "delayMs=1500";

    // a lab transaction between its read of the product and its write: the read is the last statement it ran
    private static final String READ_THEN_WAITING = """
            SELECT count(*)
              FROM pg_stat_activity
             WHERE datname = current_database()
               AND state = 'idle in transaction'
               AND query LIKE '%row_version%FROM product%'
            """;

    @Autowired
    private PlatformTransactionManager transactions;

    @Test
    void optimisticRetriesOnTheWorkersDecrementAndKeepsTheBooksExact() {
        var productId = createProduct(STOCK, "2.00");
        var buyer = placeOrders(productId, 1).getFirst();
        var retriesBefore = retries("optimistic");

        var response = checkoutWhileTheWorkerSells(productId, buyer, "optimistic");

        assertThat(response.status()).as(response::toString).isEqualTo(200);
        assertThat(response.json().get("status").asString()).isEqualTo("COMPLETED");
        // the worker's commit made the first attempt's write miss
        assertThat(retries("optimistic") - retriesBefore).isGreaterThanOrEqualTo(1);
        var report = invariants.check(productId, STOCK);
        assertThat(report.stockLeft()).isEqualTo(STOCK - WORKER_QUANTITY - 1);
        assertThat(report.completedOrders()).isEqualTo(2);
        assertThat(report.completedQuantity()).isEqualTo(WORKER_QUANTITY + 1);
        assertThat(report.payments()).isEqualTo(2);
        assertThat(report.drift()).isZero();
        assertThat(report.violations()).isEmpty();
    }

    @Test
    void naiveTxOverwritesTheWorkersDecrement() {
        var productId = createProduct(STOCK, "2.00");
        var buyer = placeOrders(productId, 1).getFirst();

        var response = checkoutWhileTheWorkerSells(productId, buyer, "naive-tx");

        // the same setting tells the two apart: naive-tx wrote back 10 - 1 over the worker's 5
        assertThat(response.status()).as(response::toString).isEqualTo(200);
        var report = invariants.check(productId, STOCK);
        assertThat(report.stockLeft()).isEqualTo(STOCK - 1);
        assertThat(report.completedQuantity()).isEqualTo(WORKER_QUANTITY + 1);
        assertThat(report.drift()).isEqualTo(WORKER_QUANTITY);
        assertThat(report.holds()).isFalse();
    }

    /**
     * Starts the lab checkout, waits until it has read the product and sits in its delay, then commits what the
     * worker commits for an order of {@link #WORKER_QUANTITY} of the same product, and returns the lab's answer.
     */
    private ApiClient.Response checkoutWhileTheWorkerSells(UUID productId, Buyer buyer, String strategy) {
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            var checkout = CompletableFuture.supplyAsync(() -> checkout(buyer, strategy, SLOW_CALL), threads);
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> jdbc.sql(READ_THEN_WAITING).query(Long.class).single() == 1);
            assertThat(checkout).isNotDone();

            sellAsTheWorker(productId, WORKER_QUANTITY);

            return checkout.get(30, TimeUnit.SECONDS);
        } catch (Exception ex) {
            throw new AssertionError("the lab checkout did not answer", ex);
        }
    }

    /** The worker's effect in one transaction: the guarded decrement, the order COMPLETED, its payment. */
    private void sellAsTheWorker(UUID productId, int quantity) {
        new TransactionTemplate(transactions).executeWithoutResult(status -> {
            var decremented = jdbc.sql("UPDATE product SET stock = stock - :q, updated_at = now() WHERE id = :id"
                            + " AND stock >= :q")
                    .param("q", quantity)
                    .param("id", productId)
                    .update();
            assertThat(decremented).isOne();
            var orderId = UUID.randomUUID();
            jdbc.sql("""
                            INSERT INTO orders (id, user_id, product_id, quantity, status)
                            VALUES (:id, :userId, :productId, :quantity, 'COMPLETED')
                            """)
                    .param("id", orderId)
                    .param("userId", newUser())
                    .param("productId", productId)
                    .param("quantity", quantity)
                    .update();
            jdbc.sql("""
                            INSERT INTO payment (id, order_id, amount)
                            SELECT gen_random_uuid(), :orderId, price * :quantity FROM product WHERE id = :productId
                            """)
                    .param("orderId", orderId)
                    .param("quantity", quantity)
                    .param("productId", productId)
                    .update();
        });
    }
}
