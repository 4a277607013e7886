/**
 * Scaling the consumer group ({@code bin/lab scale}): partitions x worker processes x key distribution, each cell a
 * backlog drained by the group, with throughput, end-to-end latency, lag per partition over time and where the CPU
 * went.
 */
@NullMarked
package dev.orderpipeline.lab.scale;

import org.jspecify.annotations.NullMarked;
