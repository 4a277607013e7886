/**
 * The soak experiment: a sustained open-model load on one hot product (requests start on a schedule at a target
 * rate, whatever the answers do, and latency counts from the scheduled start so queueing shows), per strategy and
 * rate, with the achieved rate, latency and cost per checkout and the rate at which each strategy saturates; and the capacity model
 * its costs give with more cores, bounded by the drain's and the ceiling's probes.
 */
@NullMarked
package dev.orderpipeline.lab.soak;

import org.jspecify.annotations.NullMarked;
