-- Fills a database migrated to the current schema with :orders orders shaped like a shop that has run for a year:
-- 97 % single-product orders (88 % of them COMPLETED, 10 % REJECTED, 2 % still CREATED: never checked out or in
-- flight), 3 % carts of 2 to 4 lines (80 % COMPLETED with their lines SOLD, 20 % REJECTED with one line REFUSED and
-- the others RELEASED), and a few in flight: 2,000 carts whose saga runs (CREATED, lines PENDING or RESERVED), 50 of
-- them past their deadline, and 1,000 lines RELEASING, 20 of them for longer than the release re-send bound.
-- Foreign keys are not checked while filling (session_replication_role = replica): every id is made to exist.
-- Run by fill-orders.sh, which passes -v orders=N.

\set ON_ERROR_STOP on
SET session_replication_role = replica;
SET maintenance_work_mem = '512MB';
SELECT setseed(0.26);

INSERT INTO product (id, name, stock, price)
SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(p), 12, '0'))::uuid, 'product ' || p, 1000000, 9.99 + p % 90
FROM generate_series(0, 999) AS p;

-- kind: 0 single COMPLETED, 1 single REJECTED, 2 single CREATED, 3 cart COMPLETED, 4 cart REJECTED
INSERT INTO orders (id, user_id, product_id, quantity, status, reject_reason, created_at, updated_at, checkout_deadline)
SELECT gen_random_uuid(),
       'user-' || (g % 200000),
       CASE WHEN kind < 3 THEN ('00000000-0000-4000-8000-' || lpad(to_hex(g % 1000), 12, '0'))::uuid END,
       CASE WHEN kind < 3 THEN 1 + g % 3 END,
       CASE kind WHEN 0 THEN 'COMPLETED' WHEN 3 THEN 'COMPLETED' WHEN 2 THEN 'CREATED' ELSE 'REJECTED' END,
       CASE kind WHEN 1 THEN 'INSUFFICIENT_STOCK'
                 WHEN 4 THEN (CASE WHEN g % 5 = 0 THEN 'RESERVATION_TIMEOUT' ELSE 'INSUFFICIENT_STOCK' END) END,
       at, at + interval '200 milliseconds',
       CASE WHEN kind >= 3 THEN at + interval '30 seconds' END
FROM (
    SELECT g,
           now() - interval '365 days' * (1 - g::double precision / :orders) AS at,
           CASE WHEN r < 0.03 THEN (CASE WHEN r < 0.024 THEN 3 ELSE 4 END)
                WHEN r < 0.03 + 0.97 * 0.88 THEN 0
                WHEN r < 0.03 + 0.97 * 0.98 THEN 1
                ELSE 2 END AS kind
    FROM (SELECT g, random() AS r FROM generate_series(1, :orders) AS g) AS numbered
) AS shaped;

-- a cart's lines: 2 to 4 distinct products, numbered from 1
INSERT INTO order_line (order_id, line_no, product_id, quantity, status, reject_reason, updated_at)
SELECT o.id, n,
       ('00000000-0000-4000-8000-' || lpad(to_hex((abs(hashtext(o.id::text)) + n * 7) % 1000), 12, '0'))::uuid,
       1,
       CASE WHEN o.status = 'COMPLETED' THEN 'SOLD' WHEN n = 1 THEN 'REFUSED' ELSE 'RELEASED' END,
       CASE WHEN o.status = 'REJECTED' AND n = 1 THEN 'INSUFFICIENT_STOCK' END,
       o.updated_at
FROM orders o
CROSS JOIN LATERAL generate_series(1, 2 + abs(hashtext(o.id::text)) % 3) AS n
WHERE o.product_id IS NULL;

-- in flight: the newest 2,000 completed carts still running, 50 of them overdue
WITH running AS (
    SELECT id, row_number() OVER (ORDER BY created_at DESC) AS rank
    FROM orders WHERE product_id IS NULL AND status = 'COMPLETED'
    ORDER BY created_at DESC LIMIT 2000
), moved AS (
    UPDATE orders o
    SET status = 'CREATED', reject_reason = NULL,
        checkout_deadline = CASE WHEN r.rank <= 50 THEN now() - interval '5 seconds' ELSE now() + interval '20 seconds' END
    FROM running r WHERE o.id = r.id
    RETURNING o.id
)
UPDATE order_line l SET status = CASE WHEN l.line_no = 1 THEN 'RESERVED' ELSE 'PENDING' END
FROM moved WHERE l.order_id = moved.id;

-- 1,000 lines of rejected carts on their way back to stock, 20 of them overdue for a re-send
WITH releasing AS (
    SELECT l.order_id, l.line_no, row_number() OVER (ORDER BY o.created_at DESC) AS rank
    FROM orders o JOIN order_line l ON l.order_id = o.id
    WHERE o.product_id IS NULL AND o.status = 'REJECTED' AND l.status = 'RELEASED'
    ORDER BY o.created_at DESC LIMIT 1000
)
UPDATE order_line l
SET status = 'RELEASING',
    updated_at = CASE WHEN r.rank <= 20 THEN now() - interval '5 minutes' ELSE now() END
FROM releasing r WHERE l.order_id = r.order_id AND l.line_no = r.line_no;

RESET session_replication_role;
VACUUM ANALYZE product, orders, order_line;
