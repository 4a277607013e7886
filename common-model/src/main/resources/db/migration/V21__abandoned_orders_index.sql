-- order-api's retention job deletes the orders created longer than orderpipeline.orders.retention-job.abandoned-after
-- ago that were never checked out (delete_abandoned_orders, V22), oldest first: this partial index holds only the
-- orders still CREATED whose saga never started, so it stays as small as the orders in people's hands.
--
-- Built CONCURRENTLY, outside a transaction (V21__...sql.conf: executeInTransaction=false), so that order creation
-- and checkouts go on while it builds; see V20 for the DROP and the lock_timeout.
SET lock_timeout = '5s';
-- the apps' sessions allow a statement 5 s (order-api) or 30 s (the worker): an index of a big table takes longer
SET statement_timeout = '1h';
DROP INDEX CONCURRENTLY IF EXISTS orders_abandoned_created_at_idx;
CREATE INDEX CONCURRENTLY orders_abandoned_created_at_idx ON orders (created_at)
    WHERE status = 'CREATED' AND checkout_deadline IS NULL;
RESET lock_timeout;
RESET statement_timeout;
