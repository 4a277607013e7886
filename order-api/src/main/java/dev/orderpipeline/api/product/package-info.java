/**
 * Products: their creation and lookup over HTTP and the {@code product} table. Stock and price are what checkout
 * strategies read and change; this package only creates and reads them.
 */
@NullMarked
package dev.orderpipeline.api.product;

import org.jspecify.annotations.NullMarked;
