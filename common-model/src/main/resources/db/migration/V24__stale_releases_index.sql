-- The carts' timeout sweeper re-sends the releases of lines RELEASING for longer than
-- orderpipeline.carts.release-resend-after: status = 'RELEASING' AND updated_at < now() - bound, every second on every
-- worker. No index served it (order_line_product_status_idx leads with the product), so every sweep read the whole
-- order_line table; this one holds only the lines on their way back to stock, a handful at any time.
--
-- Outside a transaction (V24__...sql.conf), on the migration sessions' lock_timeout; the DROP first for a retry after
-- a failed concurrent build, as in V23.
DROP INDEX CONCURRENTLY IF EXISTS order_line_stale_releases_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS order_line_stale_releases_idx ON order_line (updated_at)
    WHERE status = 'RELEASING';
