/**
 * This instance's health as its probes and operators read it on the management port: every check's result is kept
 * for a moment ({@link dev.orderpipeline.api.health.CachedHealthIndicator}), so that however many probes arrive, the
 * database and the broker are asked at most once per {@code orderpipeline.health.cache-time}.
 */
@NullMarked
package dev.orderpipeline.api.health;

import org.jspecify.annotations.NullMarked;
