package dev.orderpipeline.worker.retention;

import dev.orderpipeline.retention.RetentionSchedule;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Runs the {@link ProcessedCommandRetentionJob} every {@code orderpipeline.worker.retention-job.interval}, from one
 * interval after the start, unless {@code orderpipeline.worker.retention-job.enabled=false}, on a fixed delay
 * ({@link RetentionSchedule}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = ProcessedCommandRetentionProperties.ENABLED, matchIfMissing = true)
@EnableScheduling
class ProcessedCommandRetentionSchedule extends RetentionSchedule {

    ProcessedCommandRetentionSchedule(
            ObjectProvider<ProcessedCommandRetentionJob> job, ProcessedCommandRetentionProperties properties) {
        super(() -> job.getObject().run(), properties.interval());
    }
}
