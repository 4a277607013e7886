package dev.orderpipeline.api.order;

import dev.orderpipeline.retention.RetentionSchedule;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Runs the {@link OrderRetentionJob} every {@code orderpipeline.orders.retention-job.interval}, from one
 * interval after the start, unless {@code orderpipeline.orders.retention-job.enabled=false}, on a fixed delay ({@link
 * RetentionSchedule}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = RetentionJobProperties.ENABLED, matchIfMissing = true)
@EnableScheduling
class RetentionJobSchedule extends RetentionSchedule {

    RetentionJobSchedule(ObjectProvider<OrderRetentionJob> job, RetentionJobProperties properties) {
        super(() -> job.getObject().run(), properties.interval());
    }
}
