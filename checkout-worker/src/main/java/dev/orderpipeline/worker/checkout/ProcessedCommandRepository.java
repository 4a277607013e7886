package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.RejectReason;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code processed_command} idempotency table: one row per command ever applied. */
@Repository
class ProcessedCommandRepository {

    // A transaction inserting a command id that another, uncommitted transaction has inserted waits for it, then
    // sees the conflict: the second of two overlapping consumers finds the command already applied.
    private static final String CLAIM = """
            INSERT INTO processed_command (command_id, order_id)
            SELECT * FROM unnest(:commandIds, :orderIds)
            ON CONFLICT DO NOTHING
            RETURNING command_id
            """;

    private static final String RECORD_OUTCOMES = """
            UPDATE processed_command
            SET outcome = v.outcome, reject_reason = v.reject_reason
            FROM unnest(:commandIds, :outcomes, :rejectReasons) AS v(command_id, outcome, reject_reason)
            WHERE processed_command.command_id = v.command_id
            """;

    private static final String FIND_OUTCOMES = """
            SELECT command_id, outcome, reject_reason, processed_at
            FROM processed_command
            WHERE command_id = ANY(:commandIds)
            """;

    private final JdbcClient jdbc;

    ProcessedCommandRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Claims the commands for this transaction, inserting them in the given order.
     *
     * @param commands distinct commands
     * @return the ids of the commands that had not been claimed before; the others are duplicates
     */
    Set<UUID> claim(List<CheckoutCommand> commands) {
        if (commands.isEmpty()) {
            return Set.of();
        }
        return jdbc.sql(CLAIM)
                .param(
                        "commandIds",
                        commands.stream().map(CheckoutCommand::commandId).toArray(UUID[]::new))
                .param(
                        "orderIds",
                        commands.stream().map(CheckoutCommand::orderId).toArray(UUID[]::new))
                .query((rs, row) -> rs.getObject("command_id", UUID.class))
                .set();
    }

    /** Records the outcome of each claimed command; returns how many rows took one. */
    int recordOutcomes(List<Decision> decisions) {
        if (decisions.isEmpty()) {
            return 0;
        }
        return jdbc.sql(RECORD_OUTCOMES)
                .param(
                        "commandIds",
                        decisions.stream().map(d -> d.command().commandId()).toArray(UUID[]::new))
                .param(
                        "outcomes",
                        decisions.stream().map(d -> d.outcome().name()).toArray(String[]::new))
                .param("rejectReasons", Decision.rejectReasonNames(decisions))
                .update();
    }

    /** The recorded outcomes of the given commands, by command id. */
    Map<UUID, RecordedOutcome> findOutcomes(Set<UUID> commandIds) {
        if (commandIds.isEmpty()) {
            return Map.of();
        }
        return jdbc
                .sql(FIND_OUTCOMES)
                .param("commandIds", commandIds.toArray(UUID[]::new))
                .query((rs, row) -> {
                    var commandId = rs.getObject("command_id", UUID.class);
                    var outcome = rs.getString("outcome");
                    if (outcome == null) {
                        // only possible inside the claiming transaction, which this one would have waited for
                        throw new IllegalStateException("command " + commandId + " is claimed but has no outcome");
                    }
                    var rejectReason = rs.getString("reject_reason");
                    return new RecordedOutcome(
                            commandId,
                            CheckoutOutcome.valueOf(outcome),
                            rejectReason == null ? null : RejectReason.valueOf(rejectReason),
                            rs.getObject("processed_at", OffsetDateTime.class).toInstant());
                })
                .stream()
                .collect(Collectors.toMap(RecordedOutcome::commandId, Function.identity()));
    }
}
