package dev.orderpipeline.api.order;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Runs the {@link OrderRetentionJob} every {@code orderpipeline.orders.retention-job.interval}, from one
 * interval after the start, unless {@code orderpipeline.orders.retention-job.enabled=false}. A fixed delay: the next
 * run is timed from the end of the last one, so a long run is never overlapped by the schedule itself.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = RetentionJobProperties.ENABLED, matchIfMissing = true)
@EnableScheduling
class RetentionJobSchedule implements SchedulingConfigurer {

    private final ObjectProvider<OrderRetentionJob> job;
    private final RetentionJobProperties properties;

    RetentionJobSchedule(ObjectProvider<OrderRetentionJob> job, RetentionJobProperties properties) {
        this.job = job;
        this.properties = properties;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(
                new FixedDelayTask(() -> job.getObject().run(), properties.interval(), properties.interval()));
    }
}
