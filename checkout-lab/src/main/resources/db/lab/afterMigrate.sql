-- The lab's schema: applied after every migration of a database whose order-api runs with the lab switched on
-- (orderpipeline.lab.enabled=true), never to a production one. A Flyway callback, not a migration: it is not
-- recorded in the schema history, so a worker or an API without the lab still validates the same history.
--
-- It relaxes what the production schema refuses, so the lab's strategies can show their failures in the data:
--   * payments are not unique per order: the naive strategies charge a double click twice;
--   * PROCESSING is the status-claim strategy's claim;
--   * the retrying strategies reject with reasons of their own when they give up.
-- Every statement is idempotent: the callback runs again after each migrate.

ALTER TABLE payment DROP CONSTRAINT IF EXISTS payment_order_unique;
CREATE INDEX IF NOT EXISTS payment_order_id_idx ON payment (order_id);

ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_status_known;
ALTER TABLE orders ADD CONSTRAINT orders_status_known
    CHECK (status IN ('CREATED', 'PROCESSING', 'COMPLETED', 'REJECTED'));

ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_reject_reason_known;
ALTER TABLE orders ADD CONSTRAINT orders_reject_reason_known
    CHECK (reject_reason IN ('INSUFFICIENT_STOCK', 'ORDER_NOT_CREATED', 'RESERVATION_TIMEOUT',
                             'OPTIMISTIC_RETRIES_EXHAUSTED',
                             'SERIALIZATION_RETRIES_EXHAUSTED', 'DEADLOCK_RETRIES_EXHAUSTED', 'CHECKOUT_FAILED'));
