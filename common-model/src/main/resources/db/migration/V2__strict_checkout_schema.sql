-- The production schema keeps only what the pipeline writes, and makes the database refuse the rest:
--   * one payment per order, whoever writes it (a second one is a double charge);
--   * an order is CREATED, COMPLETED or REJECTED, and a rejected one says why with one of the pipeline's reasons;
--   * no version column: concurrency control is the writers' statements (guards in the WHERE clause, row locks),
--     and a reader that needs a row version has PostgreSQL's xmin, which every writer changes.
-- The lab's databases relax some of this for the strategies that demonstrate failures; production never does.

ALTER TABLE product DROP COLUMN version;

DROP INDEX payment_order_id_idx;
ALTER TABLE payment ADD CONSTRAINT payment_order_unique UNIQUE (order_id);

ALTER TABLE orders DROP CONSTRAINT orders_status_known;
ALTER TABLE orders ADD CONSTRAINT orders_status_known CHECK (status IN ('CREATED', 'COMPLETED', 'REJECTED'));
ALTER TABLE orders ADD CONSTRAINT orders_reject_reason_known
    CHECK (reject_reason IN ('INSUFFICIENT_STOCK', 'ORDER_NOT_CREATED'));
