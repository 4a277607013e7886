package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.RejectReason;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code processed_command} idempotency table: one row per command ever applied. */
@Repository
class ProcessedCommandRepository {

    // Written once, with the outcome, at the end of the applying transaction. The orders were locked first, so a
    // transaction applying the same commands has been waiting for this one and will find these rows. If one got here
    // first anyway, its row stays and the row count tells.
    private static final String RECORD = """
            INSERT INTO processed_command (command_id, order_id, outcome, reject_reason)
            SELECT * FROM unnest(:commandIds, :orderIds, :outcomes, :rejectReasons)
            ON CONFLICT DO NOTHING
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
     * Records the decided commands with their outcomes, in the given order.
     *
     * @param decisions decisions of distinct commands
     * @return how many rows were inserted; fewer than {@code decisions.size()} means some command had been recorded
     *     already
     */
    int record(List<Decision> decisions) {
        if (decisions.isEmpty()) {
            return 0;
        }
        return jdbc.sql(RECORD)
                .param(
                        "commandIds",
                        decisions.stream().map(d -> d.command().commandId()).toArray(UUID[]::new))
                .param(
                        "orderIds",
                        decisions.stream().map(d -> d.command().orderId()).toArray(UUID[]::new))
                .param(
                        "outcomes",
                        decisions.stream().map(d -> d.outcome().name()).toArray(String[]::new))
                .param("rejectReasons", Decision.rejectReasonNames(decisions))
                .update();
    }

    /** The recorded outcomes of the given commands, by command id. */
    Map<UUID, RecordedOutcome> findOutcomes(Collection<UUID> commandIds) {
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
                        // rows are written with their outcome; an older worker left it null only inside its transaction
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
