/**
 * What a lab run is aimed at: the pipeline started here as separate processes (an embedded PostgreSQL, a broker
 * from the Kafka jars, API replicas and workers, from the infra building blocks), and the options that start it. Owns
 * the clients the lab talks to it with: HTTP to the API replicas and JDBC to the database (the verdict and PostgreSQL's
 * own statistics).
 */
@NullMarked
package dev.orderpipeline.lab.pipeline;

import org.jspecify.annotations.NullMarked;
