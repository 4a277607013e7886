package dev.orderpipeline.worker.cart;

import dev.orderpipeline.contract.ReservationReply;
import dev.orderpipeline.worker.checkout.CheckoutPublisher;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * What the saga's consumers and the sweeper do after a commit, in the worker's commit order: the saga's steps and
 * replies first (waited for: the saga's progress depends on them), then results (advisory), then dead letters; and
 * what they count.
 */
@Component
class SagaReports {

    private final SagaPublisher saga;
    private final CheckoutPublisher publisher;
    private final CartMetrics metrics;

    SagaReports(SagaPublisher saga, CheckoutPublisher publisher, CartMetrics metrics) {
        this.saga = saga;
        this.publisher = publisher;
        this.metrics = metrics;
    }

    /**
     * Sends what a coordinator transaction decided: reservations or releases, then results. The results go out even
     * when the broker did not take the steps: the decisions are committed, and the redelivered poll would find the
     * orders decided and publish nothing, so a client waiting on the result would wait it out. A release not sent is
     * sent again by the sweeper; a reservation by the redelivered cart checkout.
     *
     * @throws RuntimeException the broker did not take the steps; the caller's poll is redelivered
     */
    void coordinated(SagaSteps decided) {
        try {
            saga.sendSteps(decided.steps());
        } finally {
            metrics.started(decided.started());
            metrics.decided(decided.decisions());
            publisher.publishResults(decided.results());
        }
    }

    /** Sends the replies of applied reservation steps. */
    void replied(List<ReservationReply> replies) {
        saga.sendReplies(replies);
    }

    /** Publishes the stock the steps left their products with. */
    void stock(Map<UUID, Integer> stockLeft) {
        publisher.publishStock(stockLeft);
    }

    /** Sends a poll's records that cannot be applied to their topic's dead-letter topic. */
    void deadLetter(String topic, Polled<?> polled) {
        metrics.deadLettered(topic, publisher.deadLetter(polled.deadLetters()));
    }
}
