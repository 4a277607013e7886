/**
 * The compare experiment of the articles: for each checkout strategy, fresh products with a small stock, many buyers
 * with an order each (or, in the carts workload, a cart of several hot products listed in opposite orders by pairs of
 * buyers, the shape that deadlocks unsorted row locks), all checkouts released at once, then the database's verdict
 * (oversell, drift, double payments, unfinished orders, units held by carts) beside latency, HTTP statuses, what the
 * processes used, and for carts the transactions aborted as deadlock victims.
 */
@NullMarked
package dev.orderpipeline.lab.compare;

import org.jspecify.annotations.NullMarked;
