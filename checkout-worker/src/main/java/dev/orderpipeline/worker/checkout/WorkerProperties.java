package dev.orderpipeline.worker.checkout;

import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the worker consumes and applies checkout commands.
 *
 * @param groupId the consumer group every worker instance joins
 * @param maxPollRecords most records per poll, hence per database transaction: a transaction's cost is mostly per
 *     row, but every poll also pays a commit, a few round trips and the broker's fetch and offset commit
 * @param concurrency listener threads in this instance; each owns some of the partitions
 * @param sendTimeout how long to wait for the broker to acknowledge dead letters (results are not waited for)
 * @param retryInitialInterval first pause before a batch is redelivered after a transient database failure
 * @param retryMaxInterval longest pause between redeliveries; they never stop
 */
@ConfigurationProperties("orderpipeline.worker")
record WorkerProperties(
        @DefaultValue("checkout-worker") String groupId,
        @DefaultValue("2000") int maxPollRecords,
        @DefaultValue("1") int concurrency,
        @DefaultValue("10s") Duration sendTimeout,
        @DefaultValue("100ms") Duration retryInitialInterval,
        @DefaultValue("10s") Duration retryMaxInterval) {

    WorkerProperties {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(sendTimeout, "sendTimeout");
        Objects.requireNonNull(retryInitialInterval, "retryInitialInterval");
        Objects.requireNonNull(retryMaxInterval, "retryMaxInterval");
        if (groupId.isBlank()) {
            throw new IllegalArgumentException("orderpipeline.worker.group-id must not be blank");
        }
        if (maxPollRecords <= 0 || concurrency <= 0) {
            throw new IllegalArgumentException(
                    "orderpipeline.worker.max-poll-records and concurrency must be positive");
        }
        if (!sendTimeout.isPositive() || !retryInitialInterval.isPositive()) {
            throw new IllegalArgumentException("orderpipeline.worker timeouts and intervals must be positive");
        }
        if (retryMaxInterval.compareTo(retryInitialInterval) < 0) {
            throw new IllegalArgumentException(
                    "orderpipeline.worker.retry-max-interval must not be shorter than retry-initial-interval");
        }
    }
}
