/**
 * Rebalancing during a drain ({@code bin/lab rebalance}): a worker added, one of two killed with SIGKILL, or one of two
 * killed and started again at once under its name (its static group membership), halfway through a backlog, under
 * the classic group protocol and the consumer protocol of KIP-848: the pause on the partitions that moved and on the
 * killed worker's, the duplicates the idempotency table absorbed, and the invariants.
 */
@NullMarked
package dev.orderpipeline.lab.rebalance;

import org.jspecify.annotations.NullMarked;
