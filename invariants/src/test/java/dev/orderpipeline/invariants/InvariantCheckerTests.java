package dev.orderpipeline.invariants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.schema.Migrations;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class InvariantCheckerTests {

    private static PGSimpleDataSource dataSource;

    private static InvariantChecker checker;

    @BeforeAll
    static void migrateAFreshDatabase() throws SQLException {
        var postgres = Postgres.forTests();
        dataSource = new PGSimpleDataSource();
        dataSource.setUrl(postgres.createDatabase("invariants_test"));
        dataSource.setUser(postgres.user());
        Migrations.migrate(Flyway.configure().dataSource(dataSource).load());
        // what a lab database allows (order-api's db/lab callback), so the checker can be shown the failures that
        // only the lab's broken strategies leave behind
        update("ALTER TABLE payment DROP CONSTRAINT payment_order_unique");
        update("ALTER TABLE orders DROP CONSTRAINT orders_status_known");
        checker = new InvariantChecker(dataSource);
    }

    @Test
    void holdsWhenEveryDecrementAndPaymentIsThere() throws SQLException {
        var product = product(0);
        for (int i = 0; i < 3; i++) {
            pay(order(product, "COMPLETED", null));
        }
        order(product, "REJECTED", "INSUFFICIENT_STOCK");

        var report = checker.check(product, 3);

        assertThat(report.holds()).isTrue();
        assertThat(report.violations()).isEmpty();
        assertThat(report.completedOrders()).isEqualTo(3);
        assertThat(report.rejectionsByReason()).isEqualTo(Map.of("INSUFFICIENT_STOCK", 1L));
    }

    @Test
    void seesOversellAndLostUpdatesTheWayTheNaiveCheckoutLeavesThem() throws SQLException {
        // 300 sold of 100, and the stock only went down by one: the article's naive run
        var product = product(99);
        // 300 paid orders in one statement: one commit, not 600 waits for the disk
        update("""
                WITH sold AS (
                    INSERT INTO orders (id, user_id, product_id, quantity, status)
                    SELECT gen_random_uuid(), 'u', ?, 1, 'COMPLETED' FROM generate_series(1, 300)
                    RETURNING id)
                INSERT INTO payment (id, order_id, amount) SELECT gen_random_uuid(), id, 10.00 FROM sold
                """, product);

        var report = checker.check(product, 100);

        assertThat(report.oversold()).isTrue();
        assertThat(report.drift()).isEqualTo(299);
        assertThat(report.holds()).isFalse();
        assertThat(report.violations()).hasSize(2);
    }

    @Test
    void seesDoubleChargesHalfDoneCheckoutsAndUnfinishedOrders() throws SQLException {
        var product = product(8);
        var doubleCharged = order(product, "COMPLETED", null);
        pay(doubleCharged);
        pay(doubleCharged);
        pay(order(product, "CREATED", null));
        order(product, "PROCESSING", null);

        var report = checker.check(product, 9);

        assertThat(report.ordersPaidMoreThanOnce()).isEqualTo(1);
        assertThat(report.paymentsWithoutCompletion()).isEqualTo(1);
        assertThat(report.ordersNotFinal()).isEqualTo(2);
        assertThat(report.drift()).isZero();
        assertThat(report.oversold()).isFalse();
        assertThat(report.holds()).isFalse();
    }

    @Test
    void readsOneSnapshotWhileCheckoutsCommit() throws Exception {
        // a writer completes orders one transaction at a time, each taking its unit: the books balance after every
        // commit, so any drift the checker sees comes from reading the stock and the orders at different moments
        var initialStock = 5_000;
        var product = product(initialStock);
        var stop = new AtomicBoolean();
        var sold = new AtomicInteger();
        var writer = Executors.newSingleThreadExecutor();
        try {
            var writing = writer.submit(() -> {
                try (var connection = dataSource.getConnection()) {
                    connection.setAutoCommit(false);
                    while (!stop.get() && sold.get() < initialStock) {
                        sell(connection, product);
                        connection.commit();
                        sold.incrementAndGet();
                    }
                }
                return null;
            });
            var checks = 0;
            while (sold.get() < 50) {
                Thread.onSpinWait();
            }
            for (; checks < 300 && sold.get() < initialStock; checks++) {
                var report = checker.check(product, initialStock);
                assertThat(report.drift()).as("drift seen by check %d", checks).isZero();
            }
            stop.set(true);
            writing.get();
            assertThat(checks).isGreaterThan(10);
        } finally {
            stop.set(true);
            writer.shutdownNow();
        }
    }

    @Test
    void holdsForCartsThatCompletedOrWereRejectedAndReleased() throws SQLException {
        var product = product(6);
        var other = product(10);
        pay(cart("COMPLETED", null, line(product, 2, "SOLD"), line(other, 1, "SOLD")));
        cart("REJECTED", "INSUFFICIENT_STOCK", line(product, 3, "RELEASED"), line(other, 20, "REFUSED"));
        cart("REJECTED", "RESERVATION_TIMEOUT", line(product, 1, "CANCELLED"), line(other, 1, "RELEASED"));
        // a single-product order beside the carts
        pay(order(product, "COMPLETED", null));

        var report = checker.check(product, 9);

        assertThat(report.violations()).isEmpty();
        assertThat(report.carts().soldQuantity()).isEqualTo(2);
        assertThat(report.carts().completedCarts()).isEqualTo(1);
        assertThat(report.carts().rejectedCarts()).isEqualTo(2);
        assertThat(checker.check(other, 11).violations()).isEmpty();
    }

    @Test
    void countsWhatARunningCartHoldsInTheBooksButNotAsFinal() throws SQLException {
        var product = product(7);
        cart("CREATED", null, line(product, 3, "RESERVED"), line(product(5), 1, "PENDING"));

        var report = checker.check(product, 10);

        assertThat(report.drift()).isZero();
        assertThat(report.carts().heldQuantity()).isEqualTo(3);
        assertThat(report.violations()).containsExactly("not final: 1 carts not decided yet");
    }

    @Test
    void countsEachOpenCartOnceHoweverManyOfTheProductsItHolds() throws SQLException {
        var first = product(5);
        var second = product(5);
        cart("CREATED", null, line(first, 1, "RESERVED"), line(second, 1, "PENDING"));
        cart("COMPLETED", null, line(first, 1, "SOLD"), line(second, 1, "SOLD"));
        order(first, "CREATED", null);

        assertThat(checker.cartsNotFinal(List.of(first, second))).isOne();
        assertThat(checker.cartsNotFinal(List.of(second))).isOne();
        // the single-product order is the other count's
        assertThat(checker.ordersNotFinal(List.of(first, second))).isOne();
        // a run's verdict counts each cart once over the lines it holds of the run's products
        var initialStock = new LinkedHashMap<UUID, Integer>();
        initialStock.put(first, 7);
        initialStock.put(second, 6);
        assertThat(RunVerdict.of(checker.check(initialStock), 2, 0))
                .extracting(
                        RunVerdict::completed,
                        RunVerdict::completedQuantity,
                        RunVerdict::held,
                        RunVerdict::drift,
                        RunVerdict::notFinal)
                .containsExactly(1L, 2L, 1L, 0L, 2L);
    }

    @Test
    void seesStockThatLeftWithoutAReservationOrASale() throws SQLException {
        // 2 units gone from stock that no line holds or sold: a decrement without its line's move
        var product = product(5);
        cart("REJECTED", "INSUFFICIENT_STOCK", line(product, 3, "RELEASED"), line(product(0), 1, "REFUSED"));

        var report = checker.check(product, 7);

        assertThat(report.drift()).isEqualTo(-2);
        assertThat(report.violations()).containsExactly("drift: stock 5 + sold 0 != initial 7");
    }

    @Test
    void seesACompletedCartWithALineThatWasNeverSold() throws SQLException {
        var product = product(8);
        var other = product(8);
        pay(cart("COMPLETED", null, line(product, 2, "SOLD"), line(other, 2, "RESERVED")));

        assertThat(checker.check(product, 10).violations())
                .containsExactly("completed cart not sold: 1 completed carts have a line that is not SOLD");
    }

    @Test
    void seesARejectedCartThatKeptAReservation() throws SQLException {
        var product = product(4);
        cart("REJECTED", "INSUFFICIENT_STOCK", line(product, 2, "RESERVED"), line(product(0), 1, "REFUSED"));

        // its units are also held with every order final
        assertThat(checker.check(product, 6).violations())
                .containsExactly(
                        "rejected cart holding: 1 rejected carts have a line RESERVED or SOLD",
                        "held after all final: 2 units held by carts although every order is final");
    }

    @Test
    void seesStockStillHeldOnceEveryOrderIsFinal() throws SQLException {
        // a release that never came: the cart is rejected, its line is RELEASING and the units are still out
        var product = product(4);
        cart("REJECTED", "RESERVATION_TIMEOUT", line(product, 2, "RELEASING"), line(product(3), 1, "CANCELLED"));

        var report = checker.check(product, 6);

        assertThat(report.drift()).isZero();
        assertThat(report.heldAfterAllFinal()).isEqualTo(2);
        assertThat(report.violations())
                .containsExactly("held after all final: 2 units held by carts although every order is final");
    }

    @Test
    void seesACartPaidTwiceAndAPaymentOfARejectedCart() throws SQLException {
        var product = product(10);
        var paidTwice = cart("COMPLETED", null, line(product, 1, "SOLD"), line(product(1), 1, "SOLD"));
        pay(paidTwice);
        pay(paidTwice);
        pay(cart("REJECTED", "INSUFFICIENT_STOCK", line(product, 1, "CANCELLED"), line(product(0), 1, "REFUSED")));

        assertThat(checker.check(product, 11).violations())
                .containsExactly(
                        "double payment: 1 carts paid more than once",
                        "half-done checkout: 1 payments on carts not completed");
    }

    @Test
    void refusesAnUnknownProduct() {
        assertThatIllegalArgumentException().isThrownBy(() -> checker.check(UUID.randomUUID(), 1));
    }

    @Test
    void judgesEachOfManyProductsReadTogetherAsItJudgesItAlone() throws SQLException {
        var initialStock = soundDriftingDoubleChargedAndOpen();

        var reports = checker.check(initialStock);

        assertThat(reports).extracting(InvariantReport::productId).containsExactlyElementsOf(initialStock.keySet());
        for (var report : reports) {
            assertThat(report).isEqualTo(checker.check(report.productId(), report.initialStock()));
        }
        assertThat(reports).extracting(InvariantReport::holds).containsExactly(true, false, false, false);
        assertThat(checker.ordersNotFinal(initialStock.keySet())).isOne();
    }

    @Test
    void sumsTheVerdictOverARunsProductsAndNamesEachViolationByItsProduct() throws SQLException {
        var verdict = checker.verdict(soundDriftingDoubleChargedAndOpen());

        assertThat(verdict.products()).isEqualTo(4);
        assertThat(verdict.productsViolating()).isEqualTo(3);
        assertThat(verdict.productsDrifting()).isOne();
        assertThat(verdict.completed()).isEqualTo(3);
        assertThat(verdict.rejected()).isOne();
        assertThat(verdict.rejectionsByReason()).isEqualTo(Map.of("INSUFFICIENT_STOCK", 1L));
        assertThat(verdict.stockLeft()).isEqualTo(6);
        assertThat(verdict.drift()).isOne();
        assertThat(verdict.doublePayments()).isOne();
        assertThat(verdict.payments()).isEqualTo(4);
        assertThat(verdict.notFinal()).isOne();
        assertThat(verdict.notCheckedOut()).isZero();
        assertThat(verdict.oversold()).isFalse();
        assertThat(verdict.holds()).isFalse();
        assertThat(verdict.violations())
                .containsExactly(
                        "product 2: drift: stock 2 + sold 1 != initial 2",
                        "product 3: double payment: 1 orders paid more than once",
                        "product 4: not final: 1 orders not decided yet");
    }

    /** Four products of 2 units: one sound, one that drifts, one paid twice and one with an open order, in order. */
    private static Map<UUID, Integer> soundDriftingDoubleChargedAndOpen() throws SQLException {
        var sound = product(1);
        pay(order(sound, "COMPLETED", null));
        order(sound, "REJECTED", "INSUFFICIENT_STOCK");
        var drifting = product(2);
        pay(order(drifting, "COMPLETED", null));
        var doubleCharged = product(1);
        var twice = order(doubleCharged, "COMPLETED", null);
        pay(twice);
        pay(twice);
        var open = product(2);
        order(open, "CREATED", null);
        var initialStock = new LinkedHashMap<UUID, Integer>();
        for (var product : List.of(sound, drifting, doubleCharged, open)) {
            initialStock.put(product, 2);
        }
        return initialStock;
    }

    @Test
    void setsAsideTheOpenOrdersNeverCheckedOutAndJudgesOnlyTheRest() throws SQLException {
        // a flash sale: 1 sold, 3 told sold-out at the door and left CREATED
        var product = product(0);
        pay(order(product, "COMPLETED", null));
        for (int i = 0; i < 3; i++) {
            order(product, "CREATED", null);
        }
        var reports = List.of(checker.check(product, 1));

        var allRefused = RunVerdict.of(reports, 1, 3);
        assertThat(allRefused.notFinal()).isZero();
        assertThat(allRefused.notCheckedOut()).isEqualTo(3);
        assertThat(allRefused.productsViolating()).isZero();
        assertThat(allRefused.holds()).isTrue();

        var oneAcceptedOpen = RunVerdict.of(reports, 1, 2);
        assertThat(oneAcceptedOpen.notFinal()).isOne();
        assertThat(oneAcceptedOpen.notCheckedOut()).isEqualTo(2);
        assertThat(oneAcceptedOpen.notFinal() + oneAcceptedOpen.notCheckedOut())
                .isEqualTo(checker.ordersNotFinal(List.of(product)));
        assertThat(oneAcceptedOpen.violations()).containsExactly("not final: 1 orders checked out and not decided yet");

        assertThat(RunVerdict.of(reports).violations()).containsExactly("not final: 3 orders not decided yet");
    }

    @Test
    void tellsWhichOfTheOrdersAskedAboutAreDecided() throws SQLException {
        var product = product(0);
        var completed = order(product, "COMPLETED", null);
        var rejected = order(product, "REJECTED", "INSUFFICIENT_STOCK");
        var created = order(product, "CREATED", null);
        var processing = order(product, "PROCESSING", null);
        order(product, "COMPLETED", null);

        assertThat(checker.decidedAmong(List.of(completed, rejected, created, processing, UUID.randomUUID())))
                .containsExactlyInAnyOrder(completed, rejected);
    }

    @Test
    void readsEachProductsDecidedOrdersBesideTheirIdempotencyRows() throws SQLException {
        var product = product(0);
        processed(order(product, "COMPLETED", null), "COMPLETED");
        processed(order(product, "REJECTED", "INSUFFICIENT_STOCK"), "REJECTED");
        processed(order(product, "COMPLETED", null), "REJECTED");
        var appliedTwice = order(product, "COMPLETED", null);
        processed(appliedTwice, "COMPLETED");
        processed(appliedTwice, "COMPLETED");
        order(product, "CREATED", null);
        var withoutOrders = product(1);

        var rows = checker.idempotency(List.of(product, withoutOrders));

        // the order applied twice counts once among the decided, twice among the rows
        assertThat(rows)
                .containsExactly(
                        Map.entry(product, new IdempotencyRows(4, 5, 1)),
                        Map.entry(withoutOrders, IdempotencyRows.NONE));
    }

    @Test
    void countsWhatWasDoneMoreThanOnceToTheOrdersAskedAbout() throws SQLException {
        var product = product(0);
        var retried = order(product, "COMPLETED", null);
        pay(retried);
        pay(retried);
        processed(retried, "COMPLETED");
        processed(retried, "COMPLETED");
        var once = order(product, "COMPLETED", null);
        pay(once);
        processed(once, "COMPLETED");
        var notAsked = order(product, "COMPLETED", null);
        pay(notAsked);
        pay(notAsked);

        assertThat(checker.repeatedEffects(List.of(retried, once))).isEqualTo(new RepeatedEffects(1, 1));
        assertThat(checker.repeatedEffects(List.of(once))).isEqualTo(new RepeatedEffects(0, 0));
    }

    @Test
    void judgesTheCartsAskedAboutByTheCartRulesAndTheirIdempotencyRows() throws SQLException {
        var first = product(5);
        var second = product(5);
        var completed = cart("COMPLETED", null, line(first, 1, "SOLD"), line(second, 1, "SOLD"));
        pay(completed);
        processed(completed, "COMPLETED");
        var refused = cart("REJECTED", "INSUFFICIENT_STOCK", line(first, 1, "RELEASED"), line(second, 1, "REFUSED"));
        processed(refused, "REJECTED");
        // decided without its outcome row: disagreeing
        var timedOut =
                cart("REJECTED", "RESERVATION_TIMEOUT", line(first, 1, "CANCELLED"), line(second, 2, "RELEASING"));
        var open = cart("CREATED", null, line(first, 1, "RESERVED"), line(second, 1, "PENDING"));
        var singleProduct = order(first, "COMPLETED", null);

        var carts = checker.carts(List.of(completed, refused, timedOut, open, singleProduct));

        assertThat(carts).isEqualTo(new CartVerdict(4, 1, 2, 1, 1, 1, 0, 0, 3, 2, 1, 0, 0, 2, 1));
        assertThat(carts.decided()).isEqualTo(3);
    }

    @Test
    void refusesProductsOfWhichOneIsUnknown() throws SQLException {
        var known = product(1);
        var unknown = UUID.randomUUID();

        assertThatIllegalArgumentException()
                .isThrownBy(() -> checker.check(Map.of(known, 1, unknown, 1)))
                .withMessageContaining(unknown.toString());
    }

    private static UUID product(int stock) throws SQLException {
        var id = UUID.randomUUID();
        update("INSERT INTO product (id, name, stock, price) VALUES (?, 'hot', ?, 10.00)", id, stock);
        return id;
    }

    private static UUID order(UUID product, String status, String reason) throws SQLException {
        var id = UUID.randomUUID();
        update(
                "INSERT INTO orders (id, user_id, product_id, quantity, status, reject_reason) VALUES (?, 'u', ?, 1, ?, ?)",
                id,
                product,
                status,
                reason);
        return id;
    }

    private record CartLine(UUID product, int quantity, String status) {}

    private static CartLine line(UUID product, int quantity, String status) {
        return new CartLine(product, quantity, status);
    }

    /** A cart in the given state, with its lines numbered in the order given, in one transaction. */
    private static UUID cart(String status, String reason, CartLine... lines) throws SQLException {
        var id = UUID.randomUUID();
        try (var connection = dataSource.getConnection()) {
            // the cart's shape is checked at commit, once its lines are there
            connection.setAutoCommit(false);
            update(
                    connection,
                    "INSERT INTO orders (id, user_id, status, reject_reason) VALUES (?, 'u', ?, ?)",
                    id,
                    status,
                    reason);
            for (int i = 0; i < lines.length; i++) {
                var line = lines[i];
                update(
                        connection,
                        "INSERT INTO order_line (order_id, line_no, product_id, quantity, status, reject_reason)"
                                + " VALUES (?, ?, ?, ?, ?, ?)",
                        id,
                        i + 1,
                        line.product(),
                        line.quantity(),
                        line.status(),
                        line.status().equals("REFUSED") ? "INSUFFICIENT_STOCK" : null);
            }
            connection.commit();
        }
        return id;
    }

    private static void sell(Connection connection, UUID product) throws SQLException {
        try (var take = connection.prepareStatement("UPDATE product SET stock = stock - 1 WHERE id = ?");
                var complete = connection.prepareStatement(
                        "INSERT INTO orders (id, user_id, product_id, quantity, status) VALUES (?, 'u', ?, 1, 'COMPLETED')");
                var pay = connection.prepareStatement(
                        "INSERT INTO payment (id, order_id, amount) VALUES (?, ?, 10.00)")) {
            take.setObject(1, product);
            take.executeUpdate();
            var order = UUID.randomUUID();
            complete.setObject(1, order);
            complete.setObject(2, product);
            complete.executeUpdate();
            pay.setObject(1, UUID.randomUUID());
            pay.setObject(2, order);
            pay.executeUpdate();
        }
    }

    private static void processed(UUID order, String outcome) throws SQLException {
        update(
                "INSERT INTO processed_command (command_id, order_id, outcome) VALUES (?, ?, ?)",
                UUID.randomUUID(),
                order,
                outcome);
    }

    private static void pay(UUID order) throws SQLException {
        update("INSERT INTO payment (id, order_id, amount) VALUES (?, ?, 10.00)", UUID.randomUUID(), order);
    }

    private static void update(String sql, Object... parameters) throws SQLException {
        try (var connection = dataSource.getConnection()) {
            update(connection, sql, parameters);
        }
    }

    private static void update(Connection connection, String sql, Object... parameters) throws SQLException {
        try (var statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.executeUpdate();
        }
    }
}
