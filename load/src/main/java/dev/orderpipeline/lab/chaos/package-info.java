/**
 * The fault-injection experiment ({@code bin/lab chaos}): under a sustained open-model checkout load, a share of it
 * carts of several products checked out by the reservation saga, it kills a worker with SIGKILL (and once more
 * restarting it under its name), restarts the broker and PostgreSQL, switches the database read-only, storms the
 * workers with lock timeouts, replays the command and saga topics through a fresh consumer group and injects poison
 * records on them, then judges the run by the database and the topics: every accepted checkout final, no double
 * decrement or payment, no oversell, the cart rules (completed carts sold every line, rejected ones hold nothing,
 * nothing held once final), every poison record dead-lettered with its reason, 503 and never 500 while a dependency
 * is down, and how long the pipeline took to resume after each fault.
 */
@NullMarked
package dev.orderpipeline.lab.chaos;

import org.jspecify.annotations.NullMarked;
