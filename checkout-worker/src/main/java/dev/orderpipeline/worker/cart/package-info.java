/**
 * The cart saga: checking out an order of several products, whose lines live on different products' partitions,
 * without a distributed transaction. The coordinator (the consumer of {@code checkout.carts} and
 * {@code checkout.reservation-replies}, and the timeout sweeper) owns each cart's saga state, the order row and its
 * lines' states, and sends the reservation steps and their compensations; the reserver (the consumer of
 * {@code checkout.reservations}, keyed by product) applies the steps to the lines and the products' stock. Every
 * transaction locks order rows, then line rows, then product rows, each in id order, and decides with guards in its
 * statements, so correctness never depends on which consumer owns a partition.
 */
@NullMarked
package dev.orderpipeline.worker.cart;

import org.jspecify.annotations.NullMarked;
