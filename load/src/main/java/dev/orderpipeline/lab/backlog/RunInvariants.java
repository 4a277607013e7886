package dev.orderpipeline.lab.backlog;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.InvariantReport;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The invariants of {@link InvariantChecker}, for many products at once: the same rules (no oversell, stock left +
 * units sold = initial stock, one payment per completed order and none for others, every order final), read with one
 * set-based query instead of three queries per product, so that a run over 10,000 products is judged in a second.
 */
public final class RunInvariants {

    private static final String PER_PRODUCT = """
            WITH p AS (
                SELECT v.id, v.initial FROM unnest(?::uuid[], ?::int[]) AS v(id, initial)
            ), o AS (
                SELECT o.product_id,
                       count(*) FILTER (WHERE o.status = 'COMPLETED') AS completed,
                       coalesce(sum(o.quantity) FILTER (WHERE o.status = 'COMPLETED'), 0) AS completed_quantity,
                       count(*) FILTER (WHERE o.status = 'REJECTED') AS rejected,
                       count(*) FILTER (WHERE o.status IN ('CREATED', 'PROCESSING')) AS not_final
                FROM orders o JOIN p ON p.id = o.product_id
                GROUP BY o.product_id
            ), paid AS (
                SELECT pay.order_id, count(*) AS n, min(o.product_id::text)::uuid AS product_id,
                       bool_and(o.status = 'COMPLETED') AS completed
                FROM payment pay JOIN orders o ON o.id = pay.order_id JOIN p ON p.id = o.product_id
                GROUP BY pay.order_id
            ), pay AS (
                SELECT product_id,
                       sum(n) AS payments,
                       count(*) FILTER (WHERE n > 1) AS paid_more_than_once,
                       coalesce(sum(n) FILTER (WHERE NOT completed), 0) AS without_completion
                FROM paid
                GROUP BY product_id
            )
            SELECT p.id, p.initial, pr.stock,
                   coalesce(o.completed, 0) AS completed, coalesce(o.completed_quantity, 0) AS completed_quantity,
                   coalesce(o.rejected, 0) AS rejected, coalesce(o.not_final, 0) AS not_final,
                   coalesce(pay.payments, 0) AS payments, coalesce(pay.paid_more_than_once, 0) AS paid_more_than_once,
                   coalesce(pay.without_completion, 0) AS without_completion
            FROM p
            JOIN product pr ON pr.id = p.id
            LEFT JOIN o ON o.product_id = p.id
            LEFT JOIN pay ON pay.product_id = p.id
            """;

    private static final String NOT_FINAL = """
            SELECT count(*) FROM orders
            WHERE product_id = ANY(?::uuid[]) AND status IN ('CREATED', 'PROCESSING')
            """;

    private RunInvariants() {}

    /**
     * The verdict over a run's products.
     *
     * @param products products checked
     * @param productsViolating products for which some invariant does not hold
     * @param completed orders COMPLETED
     * @param rejected orders REJECTED
     * @param notFinal orders still CREATED or PROCESSING
     * @param unitsSold units the completed orders took
     * @param stockLeft stock of all products together
     * @param initialStock the stock they started with together
     * @param drift sum over products of stock left + units sold - initial stock
     * @param oversoldProducts products that sold more than they had
     * @param doublePayments orders paid more than once
     * @param paymentsWithoutCompletion payments on orders not COMPLETED
     * @param payments payment rows
     * @param violations the first few violations, in words, with their product
     */
    public record Summary(
            int products,
            int productsViolating,
            long completed,
            long rejected,
            long notFinal,
            long unitsSold,
            long stockLeft,
            long initialStock,
            long drift,
            int oversoldProducts,
            long doublePayments,
            long paymentsWithoutCompletion,
            long payments,
            List<String> violations) {

        public Summary {
            violations = List.copyOf(violations);
        }

        public boolean holds() {
            return productsViolating == 0;
        }
    }

    /** Checks every product of {@code initialStock} against the stock it started with. */
    public static Summary check(DataSource dataSource, Map<UUID, Integer> initialStock) {
        var reports = reports(dataSource, initialStock);
        if (reports.size() != initialStock.size()) {
            throw new IllegalStateException(
                    (initialStock.size() - reports.size()) + " products of the run are missing from the database");
        }
        long completed = 0;
        long rejected = 0;
        long notFinal = 0;
        long sold = 0;
        long left = 0;
        long initial = 0;
        long drift = 0;
        long twice = 0;
        long dangling = 0;
        long payments = 0;
        var violating = 0;
        var oversold = 0;
        var violations = new ArrayList<String>();
        for (var report : reports) {
            completed += report.completedOrders();
            rejected += report.rejectedOrders();
            notFinal += report.ordersNotFinal();
            sold += report.completedQuantity();
            left += report.stockLeft();
            initial += report.initialStock();
            drift += report.drift();
            twice += report.ordersPaidMoreThanOnce();
            dangling += report.paymentsWithoutCompletion();
            payments += report.payments();
            if (report.oversold()) {
                oversold++;
            }
            if (!report.holds()) {
                violating++;
                if (violations.size() < 5) {
                    violations.add(report.productId() + ": " + String.join("; ", report.violations()));
                }
            }
        }
        return new Summary(
                reports.size(),
                violating,
                completed,
                rejected,
                notFinal,
                sold,
                left,
                initial,
                drift,
                oversold,
                twice,
                dangling,
                payments,
                violations);
    }

    /** One {@link InvariantReport} per product (rejections are counted, not broken down by reason). */
    static List<InvariantReport> reports(DataSource dataSource, Map<UUID, Integer> initialStock) {
        var ids = new UUID[initialStock.size()];
        var stocks = new Integer[initialStock.size()];
        var i = 0;
        for (var entry : initialStock.entrySet()) {
            ids[i] = entry.getKey();
            stocks[i++] = entry.getValue();
        }
        var reports = new ArrayList<InvariantReport>(ids.length);
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(PER_PRODUCT)) {
            statement.setArray(1, connection.createArrayOf("uuid", ids));
            statement.setArray(2, connection.createArrayOf("int4", stocks));
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    reports.add(new InvariantReport(
                            rows.getObject("id", UUID.class),
                            rows.getInt("initial"),
                            rows.getInt("stock"),
                            rows.getLong("completed"),
                            rows.getLong("completed_quantity"),
                            rows.getLong("rejected"),
                            Map.of(),
                            rows.getLong("not_final"),
                            rows.getLong("payments"),
                            rows.getLong("paid_more_than_once"),
                            rows.getLong("without_completion")));
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("could not read the invariants of the run's products", ex);
        }
        return reports;
    }

    /** Orders of these products still CREATED or PROCESSING. */
    public static long ordersNotFinal(DataSource dataSource, java.util.Collection<UUID> products) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(NOT_FINAL)) {
            statement.setArray(1, connection.createArrayOf("uuid", products.toArray(UUID[]::new)));
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("could not count the open orders of the run", ex);
        }
    }
}
