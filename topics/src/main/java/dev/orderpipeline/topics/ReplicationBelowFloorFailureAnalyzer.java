package dev.orderpipeline.topics;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says plainly, instead of with a stack trace, which topics kept the app from starting and what to do. */
final class ReplicationBelowFloorFailureAnalyzer extends AbstractFailureAnalyzer<ReplicationBelowFloorException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ReplicationBelowFloorException cause) {
        return new FailureAnalysis(
                "The app uses topics with fewer replicas than orderpipeline.topics.min-replication-factor ("
                        + cause.floor() + "), and will not run on them: "
                        + ReplicationBelowFloorException.describe(cause.replicasByTopic())
                        + ". A checkout acknowledged on such a topic is lost with the broker that holds it.",
                "Give those topics as many replicas as the floor (kafka-reassign-partitions with a reassignment that"
                        + " lists more replicas per partition), then start again; topics the apps create take"
                        + " orderpipeline.topics.replication-factor, or the cluster's default.replication.factor when"
                        + " it is not set. On a cluster with fewer brokers than the floor (a local run), lower"
                        + " orderpipeline.topics.min-replication-factor (ORDERPIPELINE_TOPICS_MIN_REPLICATION_FACTOR)"
                        + " instead.",
                cause);
    }
}
