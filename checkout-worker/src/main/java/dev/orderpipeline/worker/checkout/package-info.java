/**
 * Applying checkout commands: consuming them in batches from Kafka, deciding each one in a single PostgreSQL
 * transaction per poll (idempotency claim, conditional stock decrement, order status, payment), and reporting the
 * outcome on the results topic or the record on the dead-letter topic. Owns the worker's Kafka and retry set-up, its
 * failure policy ({@link dev.orderpipeline.worker.checkout.FailureKind}: dead-letter a record only when it is at
 * fault, redeliver on anything else), the readiness check of its writes, and its repositories over the shared schema.
 */
@NullMarked
package dev.orderpipeline.worker.checkout;

import org.jspecify.annotations.NullMarked;
