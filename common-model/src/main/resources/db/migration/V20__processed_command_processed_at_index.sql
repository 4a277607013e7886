-- The worker's retention job deletes processed_command rows older than orderpipeline.worker.retention-job.keep-for
-- (delete_old_processed_commands, V22), oldest first: this index finds them without a scan of the table, which gains
-- a row per checkout and 1 + 2 per cart line.
--
-- Built CONCURRENTLY, outside a transaction (V20__...sql.conf: executeInTransaction=false), so that the workers' claims
-- go on while it builds; a build that failed half way leaves an INVALID index, which the DROP removes when the
-- migration runs again. lock_timeout: the build waits for the transactions on the table at its start and end; a
-- migration that cannot get its lock in time fails, instead of queueing every writer behind it.
SET lock_timeout = '5s';
-- the apps' sessions allow a statement 5 s (order-api) or 30 s (the worker): an index of a big table takes longer
SET statement_timeout = '1h';
DROP INDEX CONCURRENTLY IF EXISTS processed_command_processed_at_idx;
CREATE INDEX CONCURRENTLY processed_command_processed_at_idx ON processed_command (processed_at);
RESET lock_timeout;
RESET statement_timeout;
