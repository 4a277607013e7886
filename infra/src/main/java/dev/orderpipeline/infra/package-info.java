/**
 * What runs beside the code on a machine without Docker: PostgreSQL (a server that is given, or an embedded one
 * from Maven artifacts), a real Apache Kafka broker in KRaft mode started from its jars as its own process, and
 * the launcher that brings up the whole pipeline. The same classes give tests a fresh database of their own, and
 * give the lab its process building blocks ({@link dev.orderpipeline.infra.ManagedProcess}, {@link
 * dev.orderpipeline.infra.AppProcess}) to start, count, scale and kill app replicas. {@link
 * dev.orderpipeline.infra.DevelopmentTokens} mints the bearer tokens that the local run, the lab and the tests call
 * order-api with, signed with the development key the launcher hands it.
 */
@NullMarked
package dev.orderpipeline.infra;

import org.jspecify.annotations.NullMarked;
