/**
 * The lab's own endpoints and demonstrations: {@code GET /api/lab/products/{id}/invariants}, which judges a run of
 * checkouts by reading the database through the shared {@link
 * dev.orderpipeline.contract.invariant.InvariantChecker}, and {@link
 * dev.orderpipeline.api.lab.MultiProductReservation}, which shows why rows must be locked in one order.
 */
@NullMarked
package dev.orderpipeline.api.lab;

import org.jspecify.annotations.NullMarked;
