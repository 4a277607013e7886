package dev.orderpipeline.worker.checkout;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

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
 * @param instanceId this instance's stable name in the consumer group ({@code group.instance.id}): static membership,
 *     so that an instance restarted under the same name takes its partitions back at once, without a rebalance.
 *     Blank or unset: dynamic membership. Every instance of the group needs a name of its own, kept across its
 *     restarts (a pod name of a StatefulSet, a container's hostname, the local launcher's {@code checkout-worker-N}): a
 *     second live instance with the same name fences the first one out of the group. With a {@code concurrency}
 *     above 1, spring-kafka (4.0) appends the listener container's index to it, {@code <instanceId>-0},
 *     {@code <instanceId>-1}, ..., so each listener thread is a member of its own under a stable name
 * @param sessionTimeout how long the group coordinator waits for a silent member before it gives the member's
 *     partitions to the others ({@code session.timeout.ms}; the classic group protocol only, the new one takes the
 *     broker's {@code group.consumer.session.timeout.ms}). It is the cost of static membership: a static member does
 *     not leave the group when it stops, so a worker that dies for good holds its partitions, and their checkouts
 *     wait, this long; a restarted one does not wait at all. 15 s, not the client's 45 s: a kill that no restart
 *     follows then stalls its partitions for 15 s, while a member is still given five heartbeats (every 3 s) before
 *     it is declared dead, which rides out a GC pause or a short network blip without a needless rebalance. The
 *     heartbeat runs on a thread of its own, so a long poll does not count against it
 *     ({@code max.poll.interval.ms} bounds that)
 */
@ConfigurationProperties("orderpipeline.worker")
@Validated
public record WorkerProperties(
        @DefaultValue("checkout-worker") @NotBlank String groupId,
        @DefaultValue("2000") @Positive int maxPollRecords,
        @DefaultValue("1") @Positive int concurrency,
        @DefaultValue("10s") @DurationMin(millis = 1) Duration sendTimeout,
        @DefaultValue("100ms") @DurationMin(millis = 1) Duration retryInitialInterval,
        @DefaultValue("10s") Duration retryMaxInterval,
        @Nullable String instanceId,
        @DefaultValue("15s") @DurationMin(millis = 1) Duration sessionTimeout) {

    /** Binding gives every duration its default when it is not set, so none of them is null here. */
    public WorkerProperties {
        instanceId = instanceId == null || instanceId.isBlank() ? null : instanceId.strip();
        // a relation between two properties, which a constraint on one of them cannot express
        if (retryMaxInterval.compareTo(retryInitialInterval) < 0) {
            throw new IllegalArgumentException(
                    "orderpipeline.worker.retry-max-interval must not be shorter than retry-initial-interval");
        }
    }
}
