-- The carts' timeout sweeper takes the carts whose saga runs past its deadline (status CREATED, product_id NULL,
-- checkout_deadline < now), ORDER BY id LIMIT its batch, every second on every worker. This index holds only the carts
-- whose saga runs (a few thousand at most, whatever the size of orders; a decided cart leaves it) by deadline, so a
-- sweep reads the overdue ones and sorts them. It takes over from V3's orders_checkout_deadline_idx, which held every
-- CREATED order (single ones too, under a NULL deadline), whose size follows the orders in people's hands, and which no
-- other query reads.
--
-- Outside a transaction (V23__...sql.conf), on the migration sessions' lock_timeout (docs/database.md): a concurrent
-- build that fails leaves its index INVALID, and CREATE ... IF NOT EXISTS alone would keep that one and let Flyway
-- record the version as done; the DROP first removes whatever a failed run left, so the retry builds it again.
DROP INDEX CONCURRENTLY IF EXISTS orders_overdue_carts_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS orders_overdue_carts_idx ON orders (checkout_deadline)
    WHERE status = 'CREATED' AND product_id IS NULL;
DROP INDEX CONCURRENTLY IF EXISTS orders_checkout_deadline_idx;
