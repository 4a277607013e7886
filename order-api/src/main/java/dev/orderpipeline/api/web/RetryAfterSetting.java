package dev.orderpipeline.api.web;

import java.time.Duration;

/**
 * How long a 503 tells clients to wait before retrying. One value for every endpoint, so that a client backs off
 * the same whichever dependency gave out; the feature that owns the setting implements this, and the problem
 * handler reads it for the failures it maps itself.
 */
public interface RetryAfterSetting {

    Duration retryAfter();
}
