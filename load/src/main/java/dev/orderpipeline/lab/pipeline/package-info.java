/**
 * What a lab run is aimed at: the pipeline started here as separate processes (an embedded PostgreSQL, a broker
 * from the Kafka jars, API replicas and workers, from the infra building blocks), and the options that start it. Owns
 * the clients the lab talks to it with: HTTP to the API replicas, JDBC to the database (the verdict and PostgreSQL's
 * own statistics), and Kafka consumers of {@code checkout.results}, one that times asynchronous outcomes as they come
 * and the reader of topics after a run.
 */
@NullMarked
package dev.orderpipeline.lab.pipeline;

import org.jspecify.annotations.NullMarked;
