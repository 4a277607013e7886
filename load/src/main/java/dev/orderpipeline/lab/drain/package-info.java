/**
 * The drain ({@code bin/lab drain}): a backlog of checkouts pre-filled on the command topic with no worker running,
 * then one worker started and timed until the consumer group's lag is zero, with its memory and CPU,
 * the invariants, and the ceiling measured in the same invocation to compare against.
 */
@NullMarked
package dev.orderpipeline.lab.drain;

import org.jspecify.annotations.NullMarked;
