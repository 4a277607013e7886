/**
 * The carts compare: orders of several products, checked out by the pipeline's reservation saga and by the lab's
 * lock-based cart strategies, on a few hot products, with carts that list the same products in opposite orders (the
 * shape that deadlocks unsorted row locks), all checkouts released at once. Per strategy: decided carts per second,
 * the time from the release to each decision, aborted transactions, and the database's verdict on the carts.
 */
@NullMarked
package dev.orderpipeline.lab.carts;

import org.jspecify.annotations.NullMarked;
