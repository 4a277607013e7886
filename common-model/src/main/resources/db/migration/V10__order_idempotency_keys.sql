-- Idempotency keys of order creation: a client that sends POST /api/orders again with the same Idempotency-Key header
-- and the same request gets the order its first request placed, instead of a second order. A key belongs to the user
-- who sent it (another user's same key is another key), names the order it placed and a hash of the request that
-- placed it, and is kept until expires_at: order-api sets it to its orderpipeline.orders.idempotency-key-retention
-- (24 h by default) after the key's first use. From then on the API treats the key as new (it takes the row over), and
-- forget_expired_order_idempotency_keys deletes the row.
--
-- Written in the transaction that inserts the order (the order first, then the key with ON CONFLICT), so two requests
-- racing with one key serialize on the primary key and place one order. Orders are never deleted by the pipeline; the
-- foreign key has no index of its own for that reason.

CREATE TABLE order_idempotency_key (
    user_id          text        NOT NULL,
    idempotency_key  text        NOT NULL,
    -- SHA-256 of the request as the API read it: the same key with another request is refused, not replayed
    request_hash     bytea       NOT NULL,
    order_id         uuid        NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    CONSTRAINT order_idempotency_key_pk PRIMARY KEY (user_id, idempotency_key),
    CONSTRAINT order_idempotency_key_order_fk FOREIGN KEY (order_id) REFERENCES orders (id),
    CONSTRAINT order_idempotency_key_length CHECK (length(idempotency_key) BETWEEN 1 AND 255),
    CONSTRAINT order_idempotency_key_request_hash_sha256 CHECK (length(request_hash) = 32),
    CONSTRAINT order_idempotency_key_expires_after_creation CHECK (expires_at > created_at)
);

-- the retention job's scan, oldest first
CREATE INDEX order_idempotency_key_expires_at_idx ON order_idempotency_key (expires_at);

-- Forgets up to max_keys expired keys, oldest first, and answers how many it deleted: the retention job calls it in a
-- loop until it answers less than max_keys, each call its own short transaction (SELECT
-- forget_expired_order_idempotency_keys(1000)). Keys that a request is taking over at that moment are skipped, not
-- waited for; the next call finds them expired again or taken.
CREATE FUNCTION forget_expired_order_idempotency_keys(max_keys integer) RETURNS integer
    LANGUAGE sql
AS $$
    WITH expired AS (
        SELECT user_id, idempotency_key
          FROM order_idempotency_key
         WHERE expires_at <= now()
         ORDER BY expires_at
         LIMIT max_keys
           FOR UPDATE SKIP LOCKED
    ), forgotten AS (
        DELETE FROM order_idempotency_key k
         USING expired e
         WHERE k.user_id = e.user_id
           AND k.idempotency_key = e.idempotency_key
        RETURNING 1
    )
    SELECT count(*)::integer FROM forgotten
$$;
