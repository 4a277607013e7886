/**
 * The compare experiment of the articles: for each checkout strategy, a fresh product with a small stock, many
 * buyers with an order each, all checkouts released at once, then the database's verdict (oversell, drift, double
 * payments, unfinished orders) beside latency, HTTP statuses and what the processes used.
 */
@NullMarked
package dev.orderpipeline.lab.compare;

import org.jspecify.annotations.NullMarked;
