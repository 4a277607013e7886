/**
 * The fault-injection experiment ({@code bin/lab chaos}): under a sustained open-model checkout load it kills a
 * worker with SIGKILL (and once more restarting it under its name), restarts the broker and PostgreSQL, switches the
 * database read-only, storms the workers with lock timeouts, replays the command topic through a fresh consumer group
 * and injects poison records, then judges the run by the database and the topics: every accepted checkout final,
 * no double decrement or payment, no oversell, every poison record dead-lettered with its reason, 503 and never 500
 * while a dependency is down, and how long the pipeline took to resume after each fault.
 */
@NullMarked
package dev.orderpipeline.lab.chaos;

import org.jspecify.annotations.NullMarked;
