package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.Together;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carts of the same three products, half of them listing the products forwards and half backwards, all checked out
 * at the same instant with a cart strategy and a pause after every product lock. Locked sorted by id they queue;
 * locked in line order they deadlock, PostgreSQL aborts victims and the strategy runs them again. Either way the
 * database must come out right: judged by the rows, not by the answers.
 */
class CartStrategyRaceTests extends LabTestSupport {

    private static final Logger log = LoggerFactory.getLogger(CartStrategyRaceTests.class);

    private static final int CARTS = 8;
    private static final int STOCK = 6;
    private static final String RETRYING = "delayMs=20&maxAttempts=50";

    /**
     * Few enough attempts that unordered locks end within the request timeout: victims that retry at once can
     * deadlock again round after round, a second of {@code deadlock_timeout} each, so 50 attempts may run for minutes.
     */
    private static final String FEW_RETRIES = "delayMs=20&maxAttempts=3";

    @Test
    void sortedLocksSellExactlyTheStockWithoutADeadlock() {
        var race = race(CartForUpdateCheckouts.SORTED, RETRYING);

        assertThat(race.statuses()).isEqualTo(Map.of(200, (long) CARTS));
        assertThat(race.aborted()).isZero();
        assertCorrect(race);
        // no deadlock, so no give-up: every unit is sold and every other cart is refused for stock alone
        assertThat(race.outcomes())
                .isEqualTo(Map.of("COMPLETED", (long) STOCK, "REJECTED INSUFFICIENT_STOCK", (long) CARTS - STOCK));
        assertThat(race.products())
                .allSatisfy(product -> assertThat(stock(product)).isZero());
    }

    @Test
    void unsortedLocksDeadlockYetSellNoUnitTwice() {
        var race = race(CartForUpdateCheckouts.UNSORTED, FEW_RETRIES);

        assertThat(race.statuses()).isEqualTo(Map.of(200, (long) CARTS));
        assertThat(race.aborted())
                .as("transactions aborted as deadlock victims")
                .isPositive();
        assertCorrect(race);
    }

    @Test
    void rejectsEachDeadlockVictimThatHasNoAttemptLeftAndTakesNothingForIt() {
        var race = race(CartForUpdateCheckouts.UNSORTED, "delayMs=20&maxAttempts=1");

        assertThat(race.statuses()).isEqualTo(Map.of(200, (long) CARTS));
        assertThat(race.aborted()).isPositive();
        // one attempt each: every victim is a cart given up, its lines CANCELLED, none of its units taken
        assertThat(race.outcomes()).containsEntry("REJECTED DEADLOCK_RETRIES_EXHAUSTED", race.aborted());
        assertCorrect(race);
    }

    @Test
    void leavesACartWhoseLinesThePipelineReservedToThePipeline() {
        var product = createProduct(5, "1.00");
        var cart = placeCarts(List.of(product, createProduct(5, "1.00")), 1).getFirst();
        jdbc.sql("UPDATE order_line SET status = 'RESERVED' WHERE order_id = :id AND line_no = 1")
                .param("id", cart.orderId())
                .update();

        var response = checkout(cart, CartForUpdateCheckouts.SORTED, "");

        assertThat(response.status()).as(response::toString).isEqualTo(409);
        assertThat(response.json().get("type").asString())
                .isEqualTo("urn:order-pipeline:problem:order-not-checkoutable");
        assertThat(statusInDatabase(cart.orderId())).isEqualTo("CREATED");
        assertThat(stock(product)).isEqualTo(5);
    }

    @Test
    void refusesToCheckOutAnOrderOfTheOtherKind() {
        var product = createProduct(5, "1.00");
        var single = placeOrders(product, 1).getFirst();
        var cart = placeCarts(List.of(product, createProduct(5, "1.00")), 1).getFirst();

        var cartStrategyOnSingle = checkout(single, CartForUpdateCheckouts.SORTED, "");
        var singleStrategyOnCart = checkout(cart, ForUpdateCheckoutStrategy.NAME, "");

        for (var refused : List.of(cartStrategyOnSingle, singleStrategyOnCart)) {
            assertThat(refused.status()).as(refused::toString).isEqualTo(400);
            assertThat(refused.json().get("type").asString())
                    .isEqualTo("urn:order-pipeline:problem:strategy-not-applicable");
        }
        assertThat(statusInDatabase(single.orderId())).isEqualTo("CREATED");
        assertThat(statusInDatabase(cart.orderId())).isEqualTo("CREATED");
        assertThat(stock(product)).isEqualTo(5);
    }

    /**
     * What a race of carts left.
     *
     * @param outcomes carts by final status (and reason)
     * @param aborted transactions PostgreSQL aborted as deadlock victims ({@code lab.checkout.aborted})
     */
    private record CartRace(
            List<UUID> products,
            List<Buyer> carts,
            Map<Integer, Long> statuses,
            Map<String, Long> outcomes,
            long aborted) {}

    private CartRace race(String strategy, String query) {
        var products =
                List.of(createProduct(STOCK, "1.00"), createProduct(STOCK, "2.00"), createProduct(STOCK, "3.00"));
        var carts = placeCarts(products, CARTS);
        var tasks = new ArrayList<Callable<ApiClient.Response>>();
        for (var cart : carts) {
            tasks.add(() -> checkout(cart, strategy, query));
        }
        var abortedBefore = aborted(strategy);
        var started = System.nanoTime();
        var statuses = Together.run(tasks).stream()
                .collect(Collectors.groupingBy(ApiClient.Response::status, TreeMap::new, Collectors.counting()));
        var race =
                new CartRace(products, carts, statuses, outcomes(carts), Math.round(aborted(strategy) - abortedBefore));
        log.info(
                "{}: {} carts on {} units of 3 products in {} ms: http={} outcomes={} aborted={} retries={}",
                strategy,
                CARTS,
                STOCK,
                (System.nanoTime() - started) / 1_000_000,
                statuses,
                race.outcomes(),
                race.aborted(),
                Math.round(retries(strategy)));
        return race;
    }

    /** The invariants of carts, from the rows: no oversell, no drift, one payment per sale, lines as their order. */
    private void assertCorrect(CartRace race) {
        var ids = race.carts().stream().map(Buyer::orderId).toList();
        for (var product : race.products()) {
            var sold = jdbc.sql("""
                            SELECT coalesce(sum(quantity), 0) FROM order_line
                             WHERE product_id = :product AND status = 'SOLD'
                            """).param("product", product).query(Long.class).single();
            assertThat(sold).as("units of %s sold", product).isLessThanOrEqualTo(STOCK);
            assertThat(stock(product) + sold).as("stock + sold of %s", product).isEqualTo(STOCK);
        }
        assertThat(count("""
                        SELECT count(*) FROM orders WHERE id = ANY(CAST(:ids AS uuid[])) AND status = 'CREATED'
                        """, ids)).as("carts not final").isZero();
        assertThat(count("""
                        SELECT count(*) FROM order_line
                         WHERE order_id = ANY(CAST(:ids AS uuid[])) AND status NOT IN ('SOLD', 'REFUSED', 'CANCELLED')
                        """, ids)).as("lines held or pending").isZero();
        assertThat(count("""
                        SELECT count(*) FROM order_line l JOIN orders o ON o.id = l.order_id
                         WHERE o.id = ANY(CAST(:ids AS uuid[]))
                           AND (o.status = 'COMPLETED') <> (l.status = 'SOLD')
                        """, ids))
                .as("lines whose state disagrees with their cart's")
                .isZero();
        assertThat(count("""
                        SELECT count(*) FROM orders o
                         WHERE o.id = ANY(CAST(:ids AS uuid[]))
                           AND (SELECT count(*) FROM payment p WHERE p.order_id = o.id)
                               <> CASE WHEN o.status = 'COMPLETED' THEN 1 ELSE 0 END
                        """, ids))
                .as("carts without exactly one payment per sale")
                .isZero();
        assertThat(count("""
                        SELECT count(*) FROM payment p
                         WHERE p.order_id = ANY(CAST(:ids AS uuid[]))
                           AND p.amount <> (SELECT sum(l.quantity * pr.price) FROM order_line l
                                              JOIN product pr ON pr.id = l.product_id
                                             WHERE l.order_id = p.order_id)
                        """, ids))
                .as("payments that are not their cart's amount")
                .isZero();
    }

    /** {@code count} carts of one unit of every product, even ones listing them forwards and odd ones backwards. */
    private List<Buyer> placeCarts(List<UUID> products, int count) {
        var carts = new ArrayList<Buyer>();
        for (var i = 0; i < count; i++) {
            var cart = new Buyer(UUID.randomUUID(), "cart-buyer-" + UUID.randomUUID());
            var listed = i % 2 == 0 ? products : products.reversed();
            // the order and its lines in one statement, so in one transaction: the cart's shape is checked at commit
            jdbc.sql("""
                            WITH placed AS (INSERT INTO orders (id, user_id) VALUES (:id, :userId) RETURNING id)
                            INSERT INTO order_line (order_id, line_no, product_id, quantity)
                            SELECT placed.id, line.line_no, line.product_id, 1
                              FROM placed, unnest(:productIds) WITH ORDINALITY AS line(product_id, line_no)
                            """)
                    .param("id", cart.orderId())
                    .param("userId", cart.userId())
                    .param("productIds", listed.toArray(UUID[]::new))
                    .update();
            carts.add(cart);
        }
        return carts;
    }

    private Map<String, Long> outcomes(List<Buyer> carts) {
        return jdbc
                .sql("""
                        SELECT status || coalesce(' ' || reject_reason, '') AS outcome, count(*) AS carts
                          FROM orders
                         WHERE id = ANY(CAST(:ids AS uuid[]))
                         GROUP BY 1
                        """)
                .param("ids", ids(carts.stream().map(Buyer::orderId).toList()))
                .query((row, rowNumber) -> Map.entry(row.getString("outcome"), row.getLong("carts")))
                .list()
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private double aborted(String strategy) {
        var counter =
                meters.find("lab.checkout.aborted").tag("strategy", strategy).counter();
        return counter == null ? 0 : counter.count();
    }

    private long count(String sql, List<UUID> orderIds) {
        return jdbc.sql(sql).param("ids", ids(orderIds)).query(Long.class).single();
    }

    private static String[] ids(List<UUID> orderIds) {
        return orderIds.stream().map(UUID::toString).toArray(String[]::new);
    }

    private int stock(UUID productId) {
        return jdbc.sql("SELECT stock FROM product WHERE id = :id")
                .param("id", productId)
                .query(Integer.class)
                .single();
    }
}
