package dev.orderpipeline.retention;

import java.time.Duration;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Runs a retention job every interval, from one interval after the start. A fixed delay: the next run is timed from
 * the end of the last one, so a long run is never overlapped by the schedule itself. Each app's schedule is a
 * configuration class that extends this one with its own switch ({@code ...retention-job.enabled}).
 */
public abstract class RetentionSchedule implements SchedulingConfigurer {

    private final Runnable run;
    private final Duration interval;

    /**
     * @param run one run of the job; it never throws (a {@link RetentionJob} counts its failures), since a task that
     *     throws is not scheduled again
     * @param interval the pause between the end of one run and the start of the next
     */
    protected RetentionSchedule(Runnable run, Duration interval) {
        this.run = run;
        this.interval = interval;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(new FixedDelayTask(run, interval, interval));
    }
}
