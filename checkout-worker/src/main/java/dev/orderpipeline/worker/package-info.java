/**
 * The checkout worker application: a Kafka consumer group that applies checkout commands to PostgreSQL. The work
 * itself lives in {@link dev.orderpipeline.worker.checkout}.
 */
@NullMarked
package dev.orderpipeline.worker;

import org.jspecify.annotations.NullMarked;
