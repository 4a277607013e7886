/**
 * The worker's retention job: deletes the {@code processed_command} rows (the worker's idempotency table) that no
 * record left in a topic can need any more, with the retention module's bounded job, on a schedule of its own.
 */
@NullMarked
package dev.orderpipeline.worker.retention;

import org.jspecify.annotations.NullMarked;
