/**
 * What every endpoint shares: who is calling ({@link dev.orderpipeline.api.web.Caller}, resolved in one place so
 * that a token can replace the header later) and how errors look on the wire (RFC 9457 problem details with a
 * stable type per {@link dev.orderpipeline.api.web.ProblemKind}).
 */
@NullMarked
package dev.orderpipeline.api.web;

import org.jspecify.annotations.NullMarked;
