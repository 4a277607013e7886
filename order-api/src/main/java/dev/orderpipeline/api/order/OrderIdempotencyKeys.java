package dev.orderpipeline.api.order;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The {@code order_idempotency_key} table: which order each user's key placed, for which request, until when.
 * Expiry is decided by the statements here ({@code expires_at} against the database's clock): an expired key reads as
 * absent and is taken over by the next request that sends it, whether or not the retention job has deleted it yet.
 */
@Component
final class OrderIdempotencyKeys {

    private static final String FIND = """
            SELECT order_id, request_hash
              FROM order_idempotency_key
             WHERE user_id = :userId
               AND idempotency_key = :key
               AND expires_at > now()
            """;

    // A live key is never overwritten: the WHERE of the update lets the row count say whether this request holds the
    // key. A request racing with another that holds the key uncommitted waits here on the primary key, then finds it
    // taken (0) or free (1, the other rolled back).
    private static final String CLAIM = """
            INSERT INTO order_idempotency_key (user_id, idempotency_key, request_hash, order_id, expires_at)
            VALUES (:userId, :key, :requestHash, :orderId, now() + :retentionMillis * interval '1 millisecond')
            ON CONFLICT (user_id, idempotency_key) DO UPDATE
               SET request_hash = EXCLUDED.request_hash,
                   order_id = EXCLUDED.order_id,
                   created_at = EXCLUDED.created_at,
                   expires_at = EXCLUDED.expires_at
             WHERE order_idempotency_key.expires_at <= now()
            """;

    private final JdbcClient jdbc;

    OrderIdempotencyKeys(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** What the user's key placed, unless the key is unknown or expired. */
    Optional<Used> find(String userId, IdempotencyKey key) {
        return jdbc.sql(FIND)
                .param("userId", userId)
                .param("key", key.value())
                .query((row, rowNumber) ->
                        new Used(row.getObject("order_id", UUID.class), RequestHash.of(row.getBytes("request_hash"))))
                .optional();
    }

    /**
     * Records that the user's key placed {@code orderId} for the request of {@code requestHash}, for {@code
     * retention}; false when the key is live for an earlier request, and nothing was written.
     */
    boolean claim(String userId, IdempotencyKey key, RequestHash requestHash, UUID orderId, Duration retention) {
        return jdbc.sql(CLAIM)
                        .param("userId", userId)
                        .param("key", key.value())
                        .param("requestHash", requestHash.bytes())
                        .param("orderId", orderId)
                        .param("retentionMillis", retention.toMillis())
                        .update()
                == 1;
    }

    /** A key in use: the order it placed and the request that placed it. */
    record Used(UUID orderId, RequestHash requestHash) {}
}
