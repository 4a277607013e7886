/**
 * What every endpoint shares: who is calling ({@link dev.orderpipeline.api.web.Caller}, the verified token's
 * subject, resolved in one place), how errors look on the wire (RFC 9457 problem details with a stable
 * type per {@link dev.orderpipeline.api.web.ProblemKind}, also for the errors the server raises before any
 * application code runs), how much of a request the API reads ({@link dev.orderpipeline.api.web.RequestLimits}:
 * body size, JSON nesting and number length, all refused before anything is written), and the OpenAPI description
 * of it all.
 */
@NullMarked
package dev.orderpipeline.api.web;

import org.jspecify.annotations.NullMarked;
