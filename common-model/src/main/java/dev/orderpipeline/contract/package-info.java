/**
 * The contract between order-api and checkout-worker: the checkout command and its result as they travel on
 * Kafka, the cart saga's messages (cart checkout, reservation steps and their replies), the topic and header
 * names, and the reject reasons both sides record. The database schema that both apps share lives beside it as
 * Flyway migrations under {@code db/migration}.
 */
@NullMarked
package dev.orderpipeline.contract;

import org.jspecify.annotations.NullMarked;
