/**
 * The invariants the checkout schema must keep, and the one place that checks them: no oversell, no lost update
 * (stock + sold + held by carts == initial), at most one payment per order, every order final, and for carts: a
 * completed cart sold every line, a rejected one keeps no reservation or sale, nothing stays held once every order is
 * final. It reads the database with plain JDBC, so the tests and the lab runner judge a run by the same rules and
 * never by what the clients were told; {@link dev.orderpipeline.invariants.RunVerdict} sums a run of many products,
 * counting each cart once and setting aside the open orders that were never checked out.
 */
@NullMarked
package dev.orderpipeline.invariants;

import org.jspecify.annotations.NullMarked;
