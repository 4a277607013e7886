package dev.orderpipeline.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.lab.pipeline.ApiClient;
import dev.orderpipeline.lab.pipeline.OnTheSharedLabStack;
import dev.orderpipeline.lab.pipeline.SharedLabStack;
import dev.orderpipeline.lab.pipeline.Strategies;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Order creation beside the worker's batches on the same products: clients check out single-product orders of A and
 * B through the pipeline, so that the worker's polls lock both products, while other clients create carts listing B
 * before A (against the products' id order). With the worker holding products {@code FOR UPDATE}, the carts'
 * foreign-key checks ({@code FOR KEY SHARE}, B then A) and the worker's batches (A then B) deadlocked; with
 * {@code FOR NO KEY UPDATE} they do not even wait for each other. PostgreSQL's own count must not move, and every
 * creation must succeed.
 */
@OnTheSharedLabStack
class CrossingCartsEndToEndTests {

    private static final int CHECKOUT_CLIENTS = 16;
    private static final int CART_CLIENTS = 8;

    /** Load for this long: enough polls for the race to come up many times (it did 8 times in 25 s). */
    private static final Duration LOAD = Duration.ofSeconds(15);

    private static final int STOCK = 1_000_000;

    @Test
    void cartsCreatedAgainstTheLockOrderBesideTheWorkersBatchesNeverDeadlock(SharedLabStack.Lab lab) throws Exception {
        var api = lab.target().apis().getFirst();
        var first = api.createProduct("Crossing A", STOCK, new BigDecimal("1.00"));
        var second = api.createProduct("Crossing B", STOCK, new BigDecimal("1.00"));
        var inIdOrder = inDatabaseOrder(lab.stack().dataSource(), first, second);
        var a = inIdOrder.getFirst();
        var b = inIdOrder.getLast();
        var crossing = new LinkedHashMap<UUID, Integer>();
        crossing.put(b, 1);
        crossing.put(a, 1);

        // the pipeline warmed up (the API's producer has the topic's metadata), so that the race measures only itself
        var warmUp = api.createOrder("crossing-warm-up", a, 1);
        assertThat(api.checkout(warmUp, "crossing-warm-up", Strategies.KAFKA, null))
                .isEqualTo("202");
        awaitDecided(lab, a, b);

        var deadlocksBefore = lab.target().database().deadlocks();
        var race = new Race(api, a, b, crossing).run();
        var deadlocks = lab.target().database().deadlocks() - deadlocksBefore;
        System.out.printf(
                "crossing carts: %d carts created, %d single-product checkouts (%s), %d deadlocks, failures %s%n",
                race.carts.get(), race.checkouts.get(), new TreeMap<>(race.checkoutStatuses), deadlocks, race.failures);

        assertThat(deadlocks).as("pg_stat_database.deadlocks over the run").isZero();
        assertThat(race.failures).as("failed creations").isEmpty();
        assertThat(race.checkoutStatuses.keySet()).containsOnly("202");
        // both kinds of work ran, and ran side by side long enough to meet
        assertThat(race.carts.get()).isGreaterThan(CART_CLIENTS);
        assertThat(race.checkouts.get()).isGreaterThan(CHECKOUT_CLIENTS);
        assertThat(cartsOf(lab.stack().dataSource(), a, b)).isEqualTo(race.carts.get());
        awaitDecided(lab, a, b);
    }

    private static void awaitDecided(SharedLabStack.Lab lab, UUID a, UUID b) {
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> lab.target().database().ordersNotFinal(List.of(a, b)) == 0);
    }

    /** The clients, all released together, each looping until the load ends. */
    private static final class Race {

        private final ApiClient api;
        private final UUID a;
        private final UUID b;
        private final LinkedHashMap<UUID, Integer> crossing;
        private final AtomicLong carts = new AtomicLong();
        private final AtomicLong checkouts = new AtomicLong();
        private final Map<String, Long> checkoutStatuses = new ConcurrentHashMap<>();
        private final List<String> failures = Collections.synchronizedList(new ArrayList<>());

        Race(ApiClient api, UUID a, UUID b, LinkedHashMap<UUID, Integer> crossing) {
            this.api = api;
            this.a = a;
            this.b = b;
            this.crossing = crossing;
        }

        Race run() throws Exception {
            var start = new CountDownLatch(1);
            var clients = new ArrayList<Future<?>>();
            try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (var client = 0; client < CHECKOUT_CLIENTS; client++) {
                    var product = client % 2 == 0 ? a : b;
                    var user = "crossing-buyer-" + client;
                    clients.add(executor.submit(() -> loop(start, () -> checkOut(user, product))));
                }
                for (var client = 0; client < CART_CLIENTS; client++) {
                    var user = "crossing-cart-" + client;
                    clients.add(executor.submit(() -> loop(start, () -> createCart(user))));
                }
                start.countDown();
                for (var client : clients) {
                    client.get();
                }
            }
            return this;
        }

        private void loop(CountDownLatch start, Runnable round) {
            try {
                start.await();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
            var end = System.nanoTime() + LOAD.toNanos();
            while (System.nanoTime() < end && failures.size() < 100) {
                round.run();
            }
        }

        private void checkOut(String user, UUID product) {
            try {
                var order = api.createOrder(user, product, 1);
                var status = api.checkout(order, user, Strategies.KAFKA, null);
                checkoutStatuses.merge(status, 1L, Long::sum);
                checkouts.incrementAndGet();
            } catch (RuntimeException ex) {
                failures.add(ex.getMessage());
            }
        }

        private void createCart(String user) {
            try {
                api.createCart(user, crossing);
                carts.incrementAndGet();
            } catch (RuntimeException ex) {
                failures.add(ex.getMessage());
            }
        }
    }

    /** The two products in the order PostgreSQL sorts their ids, which is the order every writer locks them in. */
    private static List<UUID> inDatabaseOrder(DataSource database, UUID first, UUID second) throws SQLException {
        try (var connection = database.getConnection();
                var statement = connection.prepareStatement("SELECT id FROM product WHERE id IN (?, ?) ORDER BY id")) {
            statement.setObject(1, first);
            statement.setObject(2, second);
            var ids = new ArrayList<UUID>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getObject(1, UUID.class));
                }
            }
            return ids;
        }
    }

    /** Carts whose lines are exactly these two products. */
    private static long cartsOf(DataSource database, UUID a, UUID b) throws SQLException {
        try (var connection = database.getConnection();
                var statement = connection.prepareStatement("""
                        SELECT count(*) FROM (
                            SELECT order_id FROM order_line GROUP BY order_id
                            HAVING bool_and(product_id IN (?, ?)) AND count(*) = 2) carts
                        """)) {
            statement.setObject(1, a);
            statement.setObject(2, b);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
