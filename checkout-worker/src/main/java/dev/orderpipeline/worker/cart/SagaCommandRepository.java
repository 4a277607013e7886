package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.CheckoutCommand;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The saga's rows of the {@code processed_command} idempotency table: the cart checkout commands and the reservation
 * steps, claimed in the transaction that applies them.
 *
 * <p>A claim has no outcome: a step's outcome is its line's state, and a cart command's is set once its order is
 * final (the table's outcome column allows only COMPLETED and REJECTED).
 */
@Repository
class SagaCommandRepository {

    // In command-id order, so two transactions that meet here take the index entries in the same order; a claim a
    // concurrent transaction holds makes this one wait for its commit, then count as taken.
    private static final String CLAIM = """
            INSERT INTO processed_command (command_id, order_id)
            SELECT * FROM unnest(:commandIds, :orderIds)
            ON CONFLICT DO NOTHING
            RETURNING command_id
            """;

    private static final String RECORD_OUTCOMES = """
            UPDATE processed_command
            SET outcome = v.outcome, reject_reason = v.reject_reason, processed_at = now()
            FROM unnest(:commandIds, :outcomes, :rejectReasons) AS v(command_id, outcome, reject_reason)
            WHERE processed_command.command_id = v.command_id AND processed_command.outcome IS NULL
            """;

    private final JdbcClient jdbc;

    SagaCommandRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Claims the given commands (distinct ids); returns the ids this transaction claimed, the others were taken. */
    Set<UUID> claim(List<Claim> claims) {
        if (claims.isEmpty()) {
            return Set.of();
        }
        var sorted =
                claims.stream().sorted(Comparator.comparing(Claim::commandId)).toList();
        return new HashSet<>(jdbc.sql(CLAIM)
                .param("commandIds", sorted.stream().map(Claim::commandId).toArray(UUID[]::new))
                .param("orderIds", sorted.stream().map(Claim::orderId).toArray(UUID[]::new))
                .query(UUID.class)
                .list());
    }

    /** Records the outcomes of decided carts on their checkout commands' claims; returns how many were recorded. */
    int recordOutcomes(List<CartDecision> decisions) {
        if (decisions.isEmpty()) {
            return 0;
        }
        var commandIds = decisions.stream()
                .map(decision -> CheckoutCommand.idFor(decision.orderId()))
                .toArray(UUID[]::new);
        return jdbc.sql(RECORD_OUTCOMES)
                .param("commandIds", commandIds)
                .param(
                        "outcomes",
                        decisions.stream().map(d -> d.outcome().name()).toArray(String[]::new))
                .param("rejectReasons", CartDecision.rejectReasonNames(decisions))
                .update();
    }

    /**
     * A command to claim.
     *
     * @param commandId its id
     * @param orderId the order it belongs to
     */
    record Claim(UUID commandId, UUID orderId) {}
}
