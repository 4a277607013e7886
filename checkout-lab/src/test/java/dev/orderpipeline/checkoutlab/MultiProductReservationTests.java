package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.Together;
import dev.orderpipeline.checkoutlab.MultiProductReservation.LockOrder;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Transactions that lock the same rows in opposite orders deadlock; the same transactions locking by id queue.
 * Half of them name three products forwards, half backwards, all released at once, each pausing after every lock
 * (the work a checkout does per line) so that they really hold one row while asking for the next.
 */
class MultiProductReservationTests extends LabTestSupport {

    private static final Logger log = LoggerFactory.getLogger(MultiProductReservationTests.class);

    private static final int TRANSACTIONS = 8;
    private static final int STOCK = 1_000;
    private static final Duration WORK_PER_LINE = Duration.ofMillis(40);

    @Autowired
    private PlatformTransactionManager transactions;

    private MultiProductReservation reservation;

    @BeforeEach
    void createReservation() {
        reservation = new MultiProductReservation(jdbc, transactions);
    }

    @Test
    void deadlocksWhenTransactionsLockInTheOrderTheyAreGiven() {
        var products = products();

        var outcomes = reserveConcurrently(products, LockOrder.AS_GIVEN);

        var deadlocks = outcomes.stream().filter(state -> "40P01".equals(state)).count();
        var committed = outcomes.stream().filter(state -> state == null).count();
        log.info("locked as given: {} committed, {} deadlocks", committed, deadlocks);
        assertThat(deadlocks).isPositive();
        assertThat(committed + deadlocks).isEqualTo(TRANSACTIONS);
        // a deadlock victim is rolled back whole: only committed transactions took stock
        assertThat(products).allSatisfy(id -> assertThat(stock(id)).isEqualTo(STOCK - committed));
    }

    @Test
    void neverDeadlocksWhenEveryTransactionLocksById() {
        var products = products();

        var outcomes = reserveConcurrently(products, LockOrder.BY_ID);

        log.info("locked by id: {} outcomes {}", outcomes.size(), outcomes);
        assertThat(outcomes).hasSize(TRANSACTIONS).containsOnlyNulls();
        assertThat(products).allSatisfy(id -> assertThat(stock(id)).isEqualTo(STOCK - TRANSACTIONS));
    }

    @Test
    void sortsIdsTheWayPostgresqlDoes() {
        var ids = Stream.generate(UUID::randomUUID).limit(200).toList();
        var sorted = new ArrayList<>(ids);
        sorted.sort(MultiProductReservation.DATABASE_ORDER);

        var byDatabase = jdbc.sql("SELECT id FROM unnest(CAST(:ids AS uuid[])) AS id ORDER BY id")
                .param("ids", ids.stream().map(UUID::toString).toArray(String[]::new))
                .query(UUID.class)
                .list();

        assertThat(sorted).containsExactlyElementsOf(byDatabase);
    }

    /** Every transaction's SQLSTATE when it failed, {@code null} when it committed. */
    private List<@Nullable String> reserveConcurrently(List<UUID> products, LockOrder order) {
        var backwards = products.reversed();
        var tasks = new ArrayList<Callable<Boolean>>();
        for (var i = 0; i < TRANSACTIONS; i++) {
            var lines = i % 2 == 0 ? products : backwards;
            tasks.add(() -> reservation.reserve(lines, order, WORK_PER_LINE));
        }
        var states = new ArrayList<@Nullable String>();
        for (var outcome : Together.outcomes(tasks)) {
            try {
                assertThat(outcome.get()).isTrue();
                states.add(null);
            } catch (ExecutionException ex) {
                states.add(sqlState(ex.getCause()));
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
        return states;
    }

    private List<UUID> products() {
        return List.of(createProduct(STOCK, "1.00"), createProduct(STOCK, "2.00"), createProduct(STOCK, "3.00"));
    }

    private int stock(UUID productId) {
        return jdbc.sql("SELECT stock FROM product WHERE id = :id")
                .param("id", productId)
                .query(Integer.class)
                .single();
    }

    private static String sqlState(Throwable failure) {
        for (Throwable current = failure; current != null; current = current.getCause()) {
            if (current instanceof SQLException sql) {
                return sql.getSQLState();
            }
        }
        throw new AssertionError("not a database failure", failure);
    }
}
