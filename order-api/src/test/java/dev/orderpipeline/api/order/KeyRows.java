package dev.orderpipeline.api.order;

import org.springframework.jdbc.core.simple.JdbcClient;

/** One user's orders and idempotency keys in the database, as the tests of keys count and age them. */
record KeyRows(JdbcClient jdbc) {

    /** Moves every key of the user past its retention, as a day gone by would. */
    void expire(String userId) {
        jdbc.sql("UPDATE order_idempotency_key SET created_at = now() - interval '25 hours',"
                        + " expires_at = now() - interval '1 hour' WHERE user_id = :user")
                .param("user", userId)
                .update();
    }

    long orders(String userId) {
        return count("SELECT count(*) FROM orders WHERE user_id = :user", userId);
    }

    long keys(String userId) {
        return count("SELECT count(*) FROM order_idempotency_key WHERE user_id = :user", userId);
    }

    long expiredKeys(String userId) {
        return count(
                "SELECT count(*) FROM order_idempotency_key WHERE user_id = :user AND expires_at <= now()", userId);
    }

    long liveKeys(String userId) {
        return count("SELECT count(*) FROM order_idempotency_key WHERE user_id = :user AND expires_at > now()", userId);
    }

    private long count(String query, String userId) {
        return jdbc.sql(query).param("user", userId).query(Long.class).single();
    }
}
