-- Fills a database at the first schema version (V1) with :orders single-product orders as a shop would have them
-- before carts: 90 % COMPLETED with their payment and processed_command row, 8 % REJECTED with theirs, 2 % CREATED.
-- Run by migration-reads.sh, which passes -v orders=N.

\set ON_ERROR_STOP on
SET session_replication_role = replica;
SELECT setseed(0.26);

INSERT INTO product (id, name, stock, price)
SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(p), 12, '0'))::uuid, 'product ' || p, 1000000, 9.99 + p % 90
FROM generate_series(0, 999) AS p;

INSERT INTO orders (id, user_id, product_id, quantity, status, reject_reason, created_at, updated_at)
SELECT gen_random_uuid(), 'user-' || g,
       ('00000000-0000-4000-8000-' || lpad(to_hex(g % 1000), 12, '0'))::uuid, 1 + g % 3,
       CASE WHEN r < 0.90 THEN 'COMPLETED' WHEN r < 0.98 THEN 'REJECTED' ELSE 'CREATED' END,
       CASE WHEN r >= 0.90 AND r < 0.98 THEN 'INSUFFICIENT_STOCK' END,
       at, at + interval '200 milliseconds'
FROM (SELECT g, random() AS r, now() - interval '365 days' * (1 - g::double precision / :orders) AS at
      FROM generate_series(1, :orders) AS g) AS numbered;

INSERT INTO payment (id, order_id, amount)
SELECT gen_random_uuid(), id, quantity * 10 FROM orders WHERE status = 'COMPLETED';

INSERT INTO processed_command (command_id, order_id, outcome, reject_reason, processed_at)
SELECT gen_random_uuid(), id, status, reject_reason, updated_at FROM orders WHERE status <> 'CREATED';

RESET session_replication_role;
VACUUM ANALYZE product, orders, payment, processed_command;
