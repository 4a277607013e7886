package dev.orderpipeline.lab.carts;

import java.sql.SQLException;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;

/** How the carts of a run ended, as the database has them; {@code notFinal} counts those neither completed nor rejected. */
public record CartOutcomes(long completed, long rejected, long notFinal, Map<String, Long> rejectionsByReason) {

    private static final String OUTCOMES = """
            SELECT status, reject_reason, count(*) AS carts FROM orders
            WHERE id = ANY(?)
            GROUP BY status, reject_reason
            """;

    public CartOutcomes {
        rejectionsByReason = Collections.unmodifiableMap(new TreeMap<>(rejectionsByReason));
    }

    static CartOutcomes read(DataSource dataSource, Collection<UUID> carts) {
        long completed = 0;
        long rejected = 0;
        long notFinal = 0;
        var reasons = new TreeMap<String, Long>();
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(OUTCOMES)) {
            statement.setArray(1, connection.createArrayOf("uuid", carts.toArray(UUID[]::new)));
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    var count = rows.getLong("carts");
                    switch (rows.getString("status")) {
                        case "COMPLETED" -> completed += count;
                        case "REJECTED" -> {
                            rejected += count;
                            var reason = rows.getString("reject_reason");
                            reasons.merge(reason == null ? "UNKNOWN" : reason, count, Long::sum);
                        }
                        default -> notFinal += count;
                    }
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("could not read how the carts ended", ex);
        }
        return new CartOutcomes(completed, rejected, notFinal, reasons);
    }
}
