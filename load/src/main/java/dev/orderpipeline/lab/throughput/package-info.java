/**
 * The throughput experiment: a closed loop of checkouts on one hot product per strategy, each client sending its next
 * checkout as soon as the previous one is answered, with the CPU each component spends per decided checkout.
 */
@NullMarked
package dev.orderpipeline.lab.throughput;

import org.jspecify.annotations.NullMarked;
