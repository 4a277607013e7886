#!/usr/bin/env bash
# The plans of the carts' timeout sweeper's two queries on a big orders table, before and after the partial indexes
# that serve them (V23, V24): EXPLAIN (ANALYZE, BUFFERS) of each, on a scratch database filled with realistic orders.
#
#   infra/db-lab/sweeper-plans.sh [orders]      # default 10000000; about 10 min for 10 M on 2 cores
#
# The statements are read from the worker's source (CartOrderRepository.LOCK_OVERDUE,
# OrderLineRepository.CLAIM_STALE_RELEASES) with the sweeper's defaults bound: cutoff now, nothing parked, a batch of
# 100, releases re-sent after 30 s. Each runs in a transaction rolled back, so the locks and the claim's UPDATE leave
# nothing behind. docs/database.md shows what this printed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orders="${1:-10000000}"
first_index_version=23
cart="$root/checkout-worker/src/main/java/dev/orderpipeline/worker/cart"
overdue="$(java_text_block "$cart/CartOrderRepository.java" LOCK_OVERDUE | sed 's/:cutoff/$1/; s/:parked/$2/; s/:limit/$3/')"
stale="$(java_text_block "$cart/OrderLineRepository.java" CLAIM_STALE_RELEASES | sed 's/:seconds/$1/; s/:limit/$2/')"

scratch_database "db_lab_sweeper_$$"
echo "== schema before the sweeper's indexes, $orders orders"
apply_migrations 1 $((first_index_version - 1))
start=$SECONDS
sql -q -v orders="$orders" -f "$root/infra/db-lab/fill-orders.sql"
echo "filled in $((SECONDS - start)) s"
sql -At -c "SELECT 'orders: ' || count(*) || ', carts running: ' || count(*) FILTER (WHERE status = 'CREATED' AND product_id IS NULL)
            || ', order_line: ' || (SELECT count(*) FROM order_line)
            || ', RELEASING: ' || (SELECT count(*) FROM order_line WHERE status = 'RELEASING') FROM orders"

# Prepared as the driver prepares them; the plan for the values bound (custom) and the one for any values (generic),
# which PostgreSQL settles on for a statement run many times when it costs no more.
explain() {
  echo "== $1"
  sql -q -c "SELECT indexrelname AS index, pg_size_pretty(pg_relation_size(indexrelid)) AS size FROM pg_stat_user_indexes
             WHERE relname IN ('orders', 'order_line') ORDER BY 1"
  local mode
  for mode in force_custom_plan force_generic_plan; do
    echo "-- $mode"
    # twice: the first run reads from disk what the second finds in memory, as a sweep every second does
    explain_once "$mode" > /dev/null
    explain_once "$mode"
  done
}

explain_once() {
  sql -q -c "SET plan_cache_mode = $1" \
    -c "PREPARE overdue(timestamptz, uuid[], integer) AS $overdue" \
    -c "PREPARE stale(double precision, integer) AS $stale" \
    -c "BEGIN" \
    -c "EXPLAIN (ANALYZE, BUFFERS) EXECUTE overdue(now(), '{}', 100)" \
    -c "EXPLAIN (ANALYZE, BUFFERS) EXECUTE stale(30, 100)" \
    -c "ROLLBACK"
}

explain "before"
start=$SECONDS
apply_migrations "$first_index_version" 999999
echo "indexes built in $((SECONDS - start)) s"
sql -q -c "ANALYZE orders, order_line"
explain "after"
