package dev.orderpipeline.lab.drain;

import dev.orderpipeline.invariants.RunVerdict;
import dev.orderpipeline.lab.backlog.ServerCounters;
import dev.orderpipeline.lab.measure.Latency;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One batch size (k commands per transaction) on a hot product of its own; the figures are of the timed part, after
 * {@code warmupCommands} untimed ones.
 *
 * @param writers connections that applied the commands at once
 * @param batchLatency time of one transaction, from its first statement to the end of its commit
 * @param server what PostgreSQL counted during the timed part; {@code null} when it could not be read
 */
public record CeilingRun(
        int batchSize,
        int writers,
        UUID productId,
        long warmupCommands,
        long commands,
        long batches,
        double seconds,
        double perSecond,
        Latency batchLatency,
        @Nullable ServerCounters server,
        RunVerdict invariants) {}
