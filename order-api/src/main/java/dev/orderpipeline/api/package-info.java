/**
 * The order API: products, orders and their checkout over HTTP. Checkout either publishes a command keyed by
 * product for the worker to apply, or (later) runs one of the database-lock strategies in the request.
 */
@NullMarked
package dev.orderpipeline.api;

import org.jspecify.annotations.NullMarked;
