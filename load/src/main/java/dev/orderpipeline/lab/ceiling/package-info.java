/**
 * The ceiling ({@code bin/lab ceiling}): the worker's per-command work applied straight through JDBC by one writer in
 * batches of k, without Kafka, durably, on one hot product: the rate a perfect worker could reach on this database,
 * the bar the real one is measured against.
 */
@NullMarked
package dev.orderpipeline.lab.ceiling;

import org.jspecify.annotations.NullMarked;
