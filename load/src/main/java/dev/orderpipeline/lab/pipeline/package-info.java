/**
 * What a lab run is aimed at: the pipeline started here as separate processes (an embedded PostgreSQL, a broker
 * from the Kafka jars, API replicas and workers, from the infra building blocks). Owns the clients the lab talks to it with: HTTP to the API replicas, JDBC to the database (the verdict
 * and the session counts), and a Kafka consumer of {@code checkout.results} that times asynchronous outcomes.
 */
@NullMarked
package dev.orderpipeline.lab.pipeline;

import org.jspecify.annotations.NullMarked;
