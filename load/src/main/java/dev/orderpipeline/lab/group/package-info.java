/**
 * The consumer group under load ({@code bin/lab group}): a grid of partitions x worker processes x key distribution x
 * event x group protocol, each cell a backlog drained by the group to lag zero: throughput, end-to-end latency, the
 * busiest partition's share and the cost per checkout; and, when a worker is added, killed with SIGKILL, or killed and
 * started again under its name (its static group membership) part way through, the pause on the partitions that moved
 * and on the killed worker's, and the duplicates the idempotency table absorbed. Every cell checks the invariants.
 */
@NullMarked
package dev.orderpipeline.lab.group;

import org.jspecify.annotations.NullMarked;
