-- The deletions of the apps' retention jobs (the retention module's RetentionJob calls each until a call deletes
-- less than its batch, each call its own short transaction under a statement timeout). Each takes its rows FOR UPDATE
-- SKIP LOCKED, so replicas running at once delete different rows and a row someone holds is left for the next run.
SET lock_timeout = '5s';

-- processed_command rows older than keep (the worker's orderpipeline.worker.retention-job.keep-for). A row dedupes
-- its command id against a redelivery or a replay of its record, which can only come while the record is in its topic:
-- keep is longer than the topics' retention, so by then no record that carries the id is left. The rows of orders
-- still CREATED (a cart whose saga runs, whose claims its redelivered checkout needs) are kept whatever their age.
CREATE FUNCTION delete_old_processed_commands(max_rows integer, keep interval) RETURNS integer
    LANGUAGE sql
AS $$
    WITH old AS (
        SELECT pc.command_id
          FROM processed_command pc
         WHERE pc.processed_at < now() - keep
           AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = pc.order_id AND o.status = 'CREATED')
         ORDER BY pc.processed_at
         LIMIT max_rows
           FOR UPDATE OF pc SKIP LOCKED
    ), deleted AS (
        DELETE FROM processed_command pc
         USING old
         WHERE pc.command_id = old.command_id
        RETURNING 1
    )
    SELECT count(*)::integer FROM deleted
$$;

-- Orders created longer than age ago (order-api's orderpipeline.orders.retention-job.abandoned-after) and never checked
-- out: CREATED, with no saga started (a cart's checkout sets checkout_deadline). Their lines (all PENDING, holding
-- nothing) and idempotency keys go with them; such an order has no payment and no processed_command row. FOR UPDATE
-- SKIP LOCKED: an order a worker is deciding now is not deleted under it.
CREATE FUNCTION delete_abandoned_orders(max_orders integer, age interval) RETURNS integer
    LANGUAGE sql
AS $$
    WITH abandoned AS (
        SELECT id
          FROM orders
         WHERE status = 'CREATED' AND checkout_deadline IS NULL AND created_at < now() - age
         ORDER BY created_at
         LIMIT max_orders
           FOR UPDATE SKIP LOCKED
    ), keys AS (
        DELETE FROM order_idempotency_key k USING abandoned a WHERE k.order_id = a.id
    ), lines AS (
        DELETE FROM order_line l USING abandoned a WHERE l.order_id = a.id
    ), deleted AS (
        -- the foreign keys of the lines and keys are checked at the end of the statement, once all three are gone
        DELETE FROM orders o USING abandoned a WHERE o.id = a.id
        RETURNING 1
    )
    SELECT count(*)::integer FROM deleted
$$;

RESET lock_timeout;
