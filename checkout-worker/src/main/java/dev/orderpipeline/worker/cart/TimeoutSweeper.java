package dev.orderpipeline.worker.cart;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs on every worker instance, every {@code orderpipeline.carts.sweep-interval}: rejects the carts whose saga is
 * past its deadline (RESERVATION_TIMEOUT, with the same cancels and releases as a refusal), a batch at a time, and
 * sends again the releases that have been on their way for too long, so that no stock stays held once every order is
 * final. Sweepers of several instances skip each other's rows ({@code SKIP LOCKED}); a failed sweep is logged and the
 * next one tries again.
 */
@Component
class TimeoutSweeper {

    private static final Logger log = LoggerFactory.getLogger(TimeoutSweeper.class);

    private final CartCoordinator coordinator;
    private final SagaReports reports;
    private final SagaPublisher saga;

    TimeoutSweeper(CartCoordinator coordinator, SagaReports reports, SagaPublisher saga) {
        this.coordinator = coordinator;
        this.reports = reports;
        this.saga = saga;
    }

    /** One sweep; called by the scheduler. */
    void sweep() {
        try {
            SagaSteps expired;
            do {
                expired = coordinator.expire();
                reports.coordinated(expired);
            } while (!expired.decisions().isEmpty() && !Thread.currentThread().isInterrupted());
            saga.sendSteps(coordinator.staleReleases());
        } catch (RuntimeException ex) {
            // a release claimed but not sent is claimed again after release-resend-after
            log.warn("Sweeping the expired carts failed; the next sweep tries again", ex);
        }
    }
}
