/**
 * What the lab measures besides the database's verdict: latency histograms (HdrHistogram), HTTP status counts, the
 * CPU and memory of the processes under test read from {@code /proc}, PostgreSQL's active sessions, and the progress
 * line shown while a run goes on.
 */
@NullMarked
package dev.orderpipeline.lab.measure;

import org.jspecify.annotations.NullMarked;
