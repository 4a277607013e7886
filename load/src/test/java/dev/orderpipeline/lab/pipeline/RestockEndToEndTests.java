package dev.orderpipeline.lab.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.lab.measure.StatusCounts;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A product sold out through the pipeline, refused at order-api's door, restocked by an administrator, sells again:
 * the worker's stock topic reopens the door within {@code orderpipeline.checkout.sold-out-for}, and the worker
 * completes the new units' checkouts, no more than were added.
 */
@OnTheSharedLabStack
class RestockEndToEndTests {

    private static final int STOCK = 2;
    private static final int RESTOCK = 3;

    @Test
    void aRestockAfterASellOutSellsAgain(SharedLabStack.Lab lab) {
        var target = lab.target();
        var api = target.apis().getFirst();
        var product = api.createProduct("Restocked", STOCK, new BigDecimal("4.00"));
        // orders answered 409 sold-out stay CREATED: "decided" counts the accepted ones, which the worker decides
        var accepted = new int[] {0};
        for (var i = 0; i < STOCK + 1; i++) {
            var user = "restock-buyer-" + i;
            var order = api.createOrder(user, product, 1);
            var answer = api.checkout(order, user, Strategies.KAFKA, null);
            if (i < STOCK) {
                assertThat(answer).isEqualTo("202");
            } else {
                // one more than the stock: the worker rejects it, or the door already knows the product sold out
                assertThat(answer).isIn("202", StatusCounts.SOLD_OUT);
            }
            if ("202".equals(answer)) {
                accepted[0]++;
            }
        }
        awaitDecided(target, product, accepted[0]);
        assertThat(target.database()
                        .invariants(Map.of(product, STOCK))
                        .getFirst()
                        .completedOrders())
                .isEqualTo(STOCK);

        // the worker has published the stock of 0: the door refuses without a command (a checkout it lets through
        // before it knows is rejected by the worker, on a fresh order each time)
        var attempt = new int[] {0};
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            var user = "restock-late-" + attempt[0]++;
            var answer = api.checkout(api.createOrder(user, product, 1), user, Strategies.KAFKA, null);
            if ("202".equals(answer)) {
                accepted[0]++;
            }
            return StatusCounts.SOLD_OUT.equals(answer);
        });

        assertThat(api.restock(product, RESTOCK)).isEqualTo(RESTOCK);

        // within the door's bound the product sells again, one order after the other, until the new units are gone
        var next = new int[] {0};
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    var user = "restock-again-" + next[0]++;
                    var order = api.createOrder(user, product, 1);
                    if ("202".equals(api.checkout(order, user, Strategies.KAFKA, null))) {
                        accepted[0]++;
                        awaitDecided(target, product, accepted[0]);
                    }
                    return target.database()
                                    .invariants(Map.of(product, STOCK + RESTOCK))
                                    .getFirst()
                                    .completedOrders()
                            == STOCK + RESTOCK;
                });
        awaitDecided(target, product, accepted[0]);
        var report =
                target.database().invariants(Map.of(product, STOCK + RESTOCK)).getFirst();
        assertThat(report.oversold()).isFalse();
        assertThat(report.completedOrders()).isEqualTo(STOCK + RESTOCK);
        assertThat(report.stockLeft()).isZero();
        assertThat(report.drift()).isZero();
        assertThat(report.doublePayments()).isZero();
    }

    private static void awaitDecided(StackTarget target, UUID product, int accepted) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            var report = target.database()
                    .invariants(Map.of(product, STOCK + RESTOCK))
                    .getFirst();
            return report.completedOrders() + report.rejectedOrders() == accepted;
        });
    }
}
