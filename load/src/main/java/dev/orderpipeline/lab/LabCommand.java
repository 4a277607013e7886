package dev.orderpipeline.lab;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.TargetOptions;
import dev.orderpipeline.lab.report.LabReport;
import dev.orderpipeline.lab.report.ReportHeader;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Mixin;

/**
 * An experiment against the pipeline: starts the stack, listens to checkout results, runs, and stops the stack.
 */
public abstract class LabCommand extends ReportCommand {

    private static final Logger log = LoggerFactory.getLogger(LabCommand.class);

    @Mixin
    protected TargetOptions targetOptions = new TargetOptions();

    /** Runs the experiment against an open target and returns its report. */
    protected abstract LabReport run(StackTarget target, Progress progress, @Nullable ResultsListener results);

    /** Opens what the runs go against: the stack the options describe, with its workers unless the runs start theirs. */
    protected StackTarget open() {
        return startsItsOwnWorkers()
                ? targetOptions.startWithoutWorkers()
                : targetOptions.open(comparesLockStrategies());
    }

    /**
     * Whether the experiment fills the command topic itself and starts and stops its own worker processes (drain,
     * group): the stack starts without workers, and the results topic is read after each run instead of listened to.
     */
    protected boolean startsItsOwnWorkers() {
        return false;
    }

    /**
     * Whether the runs use the lab's database-lock strategies, so a stack the lab starts switches order-api's lab
     * part on (and relaxes its database's schema); experiments on the pipeline alone run the production API.
     */
    protected boolean comparesLockStrategies() {
        return false;
    }

    /**
     * Whether the lab's consumer of {@code checkout.results} runs along (it times kafka's outcomes as they come).
     * Experiments that read the results after a run turn it off, so it takes no CPU from what they measure.
     */
    protected boolean listensToResults() {
        return !startsItsOwnWorkers();
    }

    @Override
    protected LabReport execute(Progress progress) {
        progress.phase("starting the pipeline", 0);
        try (var target = open()) {
            log.info("Pipeline up: {}", target.description());
            LabReport report;
            try (var results = listensToResults() ? listen(target, progress) : null) {
                report = run(target, progress, results);
            }
            progress.phase("stopping", 0);
            return report;
        }
    }

    /** The header every report starts with; finished now. */
    protected final ReportHeader header(StackTarget target) {
        return header(target.description(), targetOptions.projectDirectory(), target.database());
    }

    private static @Nullable ResultsListener listen(StackTarget target, Progress progress) {
        try {
            return ResultsListener.start(target.bootstrapServers(), Duration.ofSeconds(60));
        } catch (RuntimeException ex) {
            progress.note("Cannot read checkout.results (" + ex.getMessage() + "): kafka's time to outcome is n/a");
            return null;
        }
    }
}
