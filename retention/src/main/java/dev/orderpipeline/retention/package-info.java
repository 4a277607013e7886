/**
 * Bounded background deletions, the one implementation both apps run to keep their tables from growing: a
 * {@link dev.orderpipeline.retention.RetentionJob} calls each of its deletions' SQL functions a batch at a time, each
 * call a short transaction of its own under a statement timeout, never two runs at once on one instance. What a
 * deletion removes, and how it stays out of the way of other replicas ({@code SKIP LOCKED}), is its function's, owned
 * by a migration; which app runs which deletion, and how often, is the app's.
 */
@NullMarked
package dev.orderpipeline.retention;

import org.jspecify.annotations.NullMarked;
