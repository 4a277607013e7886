/**
 * What the backlog experiments (drain, group) share: how checkouts spread over products ({@link
 * dev.orderpipeline.lab.backlog.KeyDistribution}, with a Zipf sampler), the set-based preparation of products and
 * orders straight in the database, a fast producer of checkout commands exactly as order-api sends them, the
 * consumer group's offsets and lag read with the admin client, the worker processes the lab starts itself, the
 * results read back from {@code checkout.results}, and the invariants of many products in one query.
 */
@NullMarked
package dev.orderpipeline.lab.backlog;

import org.jspecify.annotations.NullMarked;
