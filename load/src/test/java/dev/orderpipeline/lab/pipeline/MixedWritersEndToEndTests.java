package dev.orderpipeline.lab.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Every checkout documented as correct writes one product at the same time: the pipeline's worker and the lab's
 * db-atomic, for-update, optimistic, serializable and status-claim, each lab strategy with a pause between its read
 * and its write. None of them may lose another's decrement: the database must show no oversell, no drift, one
 * payment per completed order and every order decided. (app-lock is not among them: it holds only beside writers
 * that take the same lock in the same process.)
 */
@OnTheSharedLabStack
class MixedWritersEndToEndTests {

    private static final List<String> CORRECT =
            List.of(Strategies.KAFKA, "db-atomic", "for-update", "optimistic", "serializable", "status-claim");

    private static final int ORDERS_PER_WRITER = 30;
    private static final int INITIAL_STOCK = 90;
    private static final int DELAY_MILLIS = 5;
    private static final int RETRIES = 20;
    /** The pause before a retry when a 503 came without Retry-After (the API always sends one). */
    private static final int DEFAULT_RETRY_PAUSE_MILLIS = 500;

    @Test
    void everyCorrectWriterKeepsTheBooksBesideTheOthers(SharedLabStack.Lab lab) throws Exception {
        var target = lab.target();
        var api = target.apis().getFirst();
        var product = api.createProduct("Mixed writers", INITIAL_STOCK, new BigDecimal("3.00"));
        var checkouts = new ArrayList<Checkout>();
        for (var writer : CORRECT) {
            for (var i = 0; i < ORDERS_PER_WRITER; i++) {
                var user = writer + "-buyer-" + i;
                // 1, 2 or 3 units: a lost decrement of a larger order would not hide behind equal quantities
                checkouts.add(new Checkout(writer, user, api.createOrder(user, product, 1 + i % 3)));
            }
        }

        var statuses = releaseTogether(api, checkouts);

        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> target.database().ordersNotFinal(List.of(product)) == 0);
        var report =
                target.database().invariants(Map.of(product, INITIAL_STOCK)).getFirst();
        System.out.printf(
                "mixed writers: %d checkouts, completed %d (%d units), rejected %s, stock left %d, drift %d,"
                        + " payments %d, double payments %d, not final %d; HTTP %s%n",
                checkouts.size(),
                report.completedOrders(),
                report.completedQuantity(),
                report.rejectionsByReason(),
                report.stockLeft(),
                report.drift(),
                report.payments(),
                report.doublePayments(),
                report.ordersNotFinal(),
                statuses);

        assertThat(report.violations()).isEmpty();
        assertThat(report.holds()).isTrue();
        assertThat(report.payments()).isEqualTo(report.completedOrders());
        // demand (180 units) is twice the stock: every writer competed for the last units
        assertThat(report.stockLeft()).isLessThan(3);
        assertThat(report.completedOrders() + report.rejectedOrders()).isEqualTo(checkouts.size());
    }

    private record Checkout(String writer, String userId, UUID orderId) {}

    /** Every checkout at once, on virtual threads released by one latch; returns HTTP status counts per writer. */
    private static Map<String, Map<String, Long>> releaseTogether(ApiClient api, List<Checkout> checkouts)
            throws Exception {
        var start = new CountDownLatch(1);
        var answers = new ArrayList<Future<String>>();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var checkout : checkouts) {
                answers.add(executor.submit(() -> {
                    start.await();
                    var delay = Strategies.isAsynchronous(checkout.writer()) ? null : DELAY_MILLIS;
                    var answer = api.answerCheckout(checkout.orderId(), checkout.userId(), checkout.writer(), delay);
                    // a 503 (a pool timeout while the suite's other stacks start beside this one) leaves the order
                    // open: the client retries it after its Retry-After, as the answer asks, so that every order is
                    // decided
                    for (var attempt = 1; answer.code() == 503 && attempt < RETRIES; attempt++) {
                        var retryAfter = answer.retryAfterSeconds();
                        Thread.sleep(retryAfter == null ? DEFAULT_RETRY_PAUSE_MILLIS : retryAfter * 1000L);
                        answer = api.answerCheckout(checkout.orderId(), checkout.userId(), checkout.writer(), delay);
                    }
                    return answer.status();
                }));
            }
            start.countDown();
            var statuses = new TreeMap<String, Map<String, Long>>();
            for (var index = 0; index < checkouts.size(); index++) {
                var status = answers.get(index).get();
                statuses.computeIfAbsent(checkouts.get(index).writer(), writer -> new TreeMap<>())
                        .merge(status, 1L, Long::sum);
            }
            return statuses;
        }
    }
}
