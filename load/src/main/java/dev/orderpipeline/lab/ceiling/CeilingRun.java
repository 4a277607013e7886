package dev.orderpipeline.lab.ceiling;

import dev.orderpipeline.lab.backlog.RunInvariants;
import dev.orderpipeline.lab.backlog.ServerCounters;
import dev.orderpipeline.lab.measure.Latency;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One batch size.
 *
 * @param batchSize commands per transaction (k)
 * @param productId the hot product of the run
 * @param warmupCommands commands applied first and not timed (JIT, statement preparation, caches)
 * @param commands commands timed
 * @param batches transactions timed
 * @param seconds time of the timed part
 * @param perSecond commands per second over it
 * @param microsPerCommand the same as a cost
 * @param batchLatency time of one transaction, from its first statement to the end of its commit
 * @param server what PostgreSQL counted during the timed part; {@code null} when it could not be read
 * @param invariants the database's verdict on the run's product after it
 */
public record CeilingRun(
        int batchSize,
        UUID productId,
        long warmupCommands,
        long commands,
        long batches,
        double seconds,
        double perSecond,
        double microsPerCommand,
        Latency batchLatency,
        @Nullable ServerCounters server,
        RunInvariants.Summary invariants) {}
