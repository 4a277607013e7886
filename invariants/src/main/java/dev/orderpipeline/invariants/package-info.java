/**
 * The invariants the checkout schema must keep, and the one place that checks them: no oversell, no lost update
 * (stock + completed == initial), at most one payment per order, every order final. It reads the database with
 * plain JDBC, so tests, order-api's lab endpoint and the lab runner all judge a run by the same rules and never by
 * what the clients were told.
 */
@NullMarked
package dev.orderpipeline.invariants;

import org.jspecify.annotations.NullMarked;
