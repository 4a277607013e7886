/**
 * The lab runner ({@code bin/lab}): a command line whose commands ({@code compare}, {@code soak},
 * {@code drain}, {@code group}) reproduce the articles' experiments against the order pipeline and
 * write what they measured as a report folder; {@code token} prints a bearer token for curl against the local run.
 */
@NullMarked
package dev.orderpipeline.lab;

import org.jspecify.annotations.NullMarked;
