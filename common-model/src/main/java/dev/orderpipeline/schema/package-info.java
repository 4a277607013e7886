/**
 * The database schema both apps share: its Flyway migrations (under {@code db/migration} on the class path) and how
 * they run, on sessions of their own with the settings {@link dev.orderpipeline.schema.Migrations} gives them, whoever
 * runs them (each app at its start, {@code bin/migrate}, the lab, the tests). docs/database.md describes the tables
 * and the rules a new migration follows.
 */
@NullMarked
package dev.orderpipeline.schema;

import org.jspecify.annotations.NullMarked;
