/**
 * The fault-injection experiment ({@code bin/lab chaos}): the faults of {@link FaultKind} one after the other under a
 * checkout load with carts, judged by the database and the topics ({@link ChaosCriteria}).
 */
@NullMarked
package dev.orderpipeline.lab.chaos;

import org.jspecify.annotations.NullMarked;
