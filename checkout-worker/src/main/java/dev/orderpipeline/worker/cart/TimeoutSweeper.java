package dev.orderpipeline.worker.cart;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs on every worker instance, every {@code orderpipeline.carts.sweep-interval}, two jobs that never depend on each
 * other (one failing does not skip the other):
 *
 * <ul>
 *   <li>rejects the carts whose saga is past its deadline (RESERVATION_TIMEOUT, with the same cancels and releases as
 *       a refusal), a batch at a time; but only those whose deadline passed before the moment up to which the saga's
 *       consumers had read everything ({@link SagaBacklog}), so that a cart whose reservations wait in a topic
 *       through an outage is never timed out for it. A cart whose timeout fails on its own is parked
 *       ({@link ParkedCarts});
 *   <li>sends again the releases that have been on their way for too long, so that no stock stays held once every
 *       order is final.
 * </ul>
 *
 * <p>Sweepers of several instances skip each other's rows ({@code SKIP LOCKED}); a failed job is logged and the next
 * sweep tries again.
 */
@Component
class TimeoutSweeper {

    private static final Logger log = LoggerFactory.getLogger(TimeoutSweeper.class);

    private final CartCoordinator coordinator;
    private final SagaReports reports;
    private final SagaPublisher saga;
    private final SagaBacklog backlog;
    private final ParkedCarts parked;

    TimeoutSweeper(
            CartCoordinator coordinator,
            SagaReports reports,
            SagaPublisher saga,
            SagaBacklog backlog,
            ParkedCarts parked) {
        this.coordinator = coordinator;
        this.reports = reports;
        this.saga = saga;
        this.backlog = backlog;
        this.parked = parked;
    }

    /** One sweep; called by the scheduler. */
    void sweep() {
        timeOutOverdueCarts();
        resendStaleReleases();
    }

    private void timeOutOverdueCarts() {
        try {
            var cutoff = backlog.caughtUpAsOf();
            if (cutoff == null) {
                return;
            }
            SagaSteps expired;
            do {
                expired = coordinator.expire(cutoff);
                parked.park(expired.failed());
                reports.coordinated(expired);
            } while (!expired.decisions().isEmpty() && !Thread.currentThread().isInterrupted());
        } catch (RuntimeException ex) {
            log.warn("Timing out the overdue carts failed; the next sweep tries again", ex);
        }
    }

    private void resendStaleReleases() {
        try {
            saga.sendSteps(coordinator.staleReleases());
        } catch (RuntimeException ex) {
            // a release claimed but not sent is claimed again after release-resend-after
            log.warn(
                    "Sending the overdue releases again failed; they are claimed again after release-resend-after", ex);
        }
    }
}
