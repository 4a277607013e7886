package dev.orderpipeline.worker.retention;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Runs the {@link ProcessedCommandRetentionJob} every {@code orderpipeline.worker.retention-job.interval}, from one
 * interval after the start, unless {@code orderpipeline.worker.retention-job.enabled=false}. A fixed delay: the next
 * run is timed from the end of the last one.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = ProcessedCommandRetentionProperties.ENABLED, matchIfMissing = true)
@EnableScheduling
class ProcessedCommandRetentionSchedule implements SchedulingConfigurer {

    private final ObjectProvider<ProcessedCommandRetentionJob> job;
    private final ProcessedCommandRetentionProperties properties;

    ProcessedCommandRetentionSchedule(
            ObjectProvider<ProcessedCommandRetentionJob> job, ProcessedCommandRetentionProperties properties) {
        this.job = job;
        this.properties = properties;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(
                new FixedDelayTask(() -> job.getObject().run(), properties.interval(), properties.interval()));
    }
}
