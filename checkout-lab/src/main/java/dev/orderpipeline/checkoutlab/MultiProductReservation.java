package dev.orderpipeline.checkoutlab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reserves one unit of each of several products in one transaction, locking each product row with {@code SELECT
 * ... FOR UPDATE} before taking its unit: what a checkout of a multi-product order would do. Locked in the order
 * the caller gives, two transactions that name the same products in opposite orders each hold a row the other
 * waits for, and PostgreSQL aborts one of them with a deadlock (SQLSTATE 40P01). Locked by id, every transaction
 * takes the rows in the same order, so they queue instead (see {@code docs/deadlocks.md}).
 */
final class MultiProductReservation {

    /** The order in which rows are locked. */
    enum LockOrder {
        /** As the caller listed them: deadlocks under concurrency. */
        AS_GIVEN,
        /** By product id, in PostgreSQL's uuid order: one global order, no deadlock. */
        BY_ID
    }

    /**
     * PostgreSQL's uuid order (the 16 bytes compared unsigned), which is not {@link UUID#compareTo}'s signed one.
     * Any consistent order prevents deadlocks among users of this class; the database's own one also agrees with
     * statements that lock with {@code ORDER BY id}.
     */
    static final Comparator<UUID> DATABASE_ORDER = Comparator.comparing(
                    UUID::getMostSignificantBits, Long::compareUnsigned)
            .thenComparing(UUID::getLeastSignificantBits, Long::compareUnsigned);

    private static final String LOCK = """
            SELECT stock
              FROM product
             WHERE id = :id
               FOR UPDATE
            """;

    private static final String TAKE_ONE = """
            UPDATE product
               SET stock = stock - 1,
                   updated_at = now()
             WHERE id = :id
               AND stock >= 1
            """;

    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;

    MultiProductReservation(JdbcClient jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactions);
        this.transaction.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
    }

    /**
     * Locks every product, then takes one unit of each, all in one transaction.
     *
     * @param productIds distinct products
     * @param order the order in which rows are locked
     * @param workBetweenLocks a pause after each lock, standing for the work a real checkout does per line; it
     *     widens the window in which two transactions hold one row each
     * @return whether every product had a unit; when one had none, nothing is taken
     * @throws org.springframework.dao.DataAccessException when PostgreSQL aborts the transaction, e.g. as the victim
     *     of a deadlock
     */
    boolean reserve(List<UUID> productIds, LockOrder order, Duration workBetweenLocks) {
        if (productIds.stream().distinct().count() != productIds.size()) {
            throw new IllegalArgumentException("products must be distinct: " + productIds);
        }
        var locking = new ArrayList<>(productIds);
        if (order == LockOrder.BY_ID) {
            locking.sort(DATABASE_ORDER);
        }
        return Boolean.TRUE.equals(transaction.execute(status -> {
            for (var id : locking) {
                jdbc.sql(LOCK).param("id", id).query(Integer.class).single();
                pause(workBetweenLocks);
            }
            for (var id : locking) {
                if (jdbc.sql(TAKE_ONE).param("id", id).update() == 0) {
                    status.setRollbackOnly();
                    return false;
                }
            }
            return true;
        }));
    }

    private static void pause(Duration duration) {
        if (!duration.isPositive()) {
            return;
        }
        try {
            Thread.sleep(duration);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while holding product locks", ex);
        }
    }
}
