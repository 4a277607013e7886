/**
 * What the lab measures besides the database's verdict: latency histograms (HdrHistogram), HTTP status counts, the
 * CPU time and memory of the processes under test read from {@code /proc}, PostgreSQL's lock waits and WAL, and the
 * progress line shown while a run goes on.
 */
@NullMarked
package dev.orderpipeline.lab.measure;

import org.jspecify.annotations.NullMarked;
