package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.chaos.ChaosJudge.Criterion;
import java.time.Duration;
import java.util.List;

/**
 * A fault the chaos experiment does to the running pipeline under load. A new one is a class of its own, registered
 * as a {@link FaultKind}, which gives it the name the command line and the report use.
 */
interface Fault {

    /**
     * How long the fault and the recoveries after it are planned to take, for the number of orders to prepare; a run
     * that needs more stops its load.
     */
    Duration planned(ChaosSettings settings);

    /**
     * Does the fault, once or more, handing each window to {@link FaultRun#recover} as it ends. A fault that cannot be
     * carried out hands over its window with the failure, and the run goes on so that the report shows what it left.
     */
    void inject(FaultRun run);

    /** What the judge checks for this fault beside the criteria of every run. */
    default List<Criterion> criteria() {
        return List.of();
    }
}
