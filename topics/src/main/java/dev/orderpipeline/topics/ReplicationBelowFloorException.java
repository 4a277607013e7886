package dev.orderpipeline.topics;

import java.util.Map;
import java.util.stream.Collectors;

/** Some of the topics an app uses have fewer replicas than {@code orderpipeline.topics.min-replication-factor}. */
final class ReplicationBelowFloorException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Map<String, Integer> replicasByTopic;
    private final int floor;

    /** @param replicasByTopic the topics below the floor, each with its replication factor */
    ReplicationBelowFloorException(Map<String, Integer> replicasByTopic, int floor) {
        super("Topics below orderpipeline.topics.min-replication-factor (" + floor + "): " + describe(replicasByTopic));
        this.replicasByTopic = Map.copyOf(replicasByTopic);
        this.floor = floor;
    }

    Map<String, Integer> replicasByTopic() {
        return replicasByTopic;
    }

    int floor() {
        return floor;
    }

    /** Each topic with its replication factor, in the order given: {@code checkout.commands (1 replica), ...}. */
    static String describe(Map<String, Integer> replicasByTopic) {
        return replicasByTopic.entrySet().stream()
                .map(topic ->
                        topic.getKey() + " (" + topic.getValue() + (topic.getValue() == 1 ? " replica)" : " replicas)"))
                .collect(Collectors.joining(", "));
    }
}
