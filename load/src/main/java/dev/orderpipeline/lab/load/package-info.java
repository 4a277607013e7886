/**
 * The open-model load the soak and chaos experiments share: requests start on a schedule at a target rate, whatever
 * the answers do, at most so many in flight, arrivals beyond that dropped and counted rather than queued in the lab,
 * and the latency of each from its scheduled start, so that queueing shows.
 */
@NullMarked
package dev.orderpipeline.lab.load;

import org.jspecify.annotations.NullMarked;
