package dev.orderpipeline.lab;

import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.pipeline.ResultsListener;
import dev.orderpipeline.lab.pipeline.StackTarget;
import dev.orderpipeline.lab.pipeline.Target;
import dev.orderpipeline.lab.report.LabReport;
import org.jspecify.annotations.Nullable;

/**
 * An experiment that fills the command topic itself and starts and stops its own worker processes (drain, scale,
 * rebalance): it needs the pipeline the lab starts, without workers, and reads the results topic after each run
 * instead of listening along.
 */
public abstract class BacklogCommand extends LabCommand {

    /** Runs the experiment on the stack the lab started. */
    protected abstract LabReport run(StackTarget stack, Progress progress);

    @Override
    protected final Target open() {
        return targetOptions.startWithoutWorkers();
    }

    @Override
    protected final boolean listensToResults() {
        return false;
    }

    @Override
    protected final LabReport run(Target target, Progress progress, @Nullable ResultsListener results) {
        if (!(target instanceof StackTarget stack)) {
            throw new IllegalArgumentException(name() + " needs the pipeline the lab starts (no --api-url)");
        }
        return run(stack, progress);
    }
}
