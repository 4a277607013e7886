/**
 * The order API: products, orders and their checkout over HTTP. Checkout either publishes a command keyed by
 * product for the worker to apply, or runs one of the lab's database-lock strategies in the request ({@code
 * strategy} package); the {@code lab} package judges a run by reading the database.
 */
@NullMarked
package dev.orderpipeline.api;

import org.jspecify.annotations.NullMarked;
