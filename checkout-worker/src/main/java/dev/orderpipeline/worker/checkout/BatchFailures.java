package dev.orderpipeline.worker.checkout;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.stereotype.Component;

/**
 * The worker's failure policy ({@link FailureKind}) around a batch transaction, for every consumer that applies a
 * poll in one transaction: a transient failure has the poll redelivered and turns the {@code databaseWrites}
 * readiness DOWN; a failure a record is at fault for has the batch applied one record per transaction, so that only
 * that record is set aside for the dead-letter topic.
 */
@Component
public class BatchFailures {

    private static final Logger log = LoggerFactory.getLogger(BatchFailures.class);

    private final DatabaseWritesHealthIndicator writes;
    private final ReadOnlySessions readOnlySessions;

    BatchFailures(DatabaseWritesHealthIndicator writes, ReadOnlySessions readOnlySessions) {
        this.writes = writes;
        this.readOnlySessions = readOnlySessions;
    }

    /**
     * Applies the items in one transaction, or one by one if a record is at fault.
     *
     * @param what the items, in words, for the log ("checkout commands")
     * @param inOneTransaction applies some of the items in one transaction and returns what it settled
     * @param atFault what an item that cannot be applied on its own settles as, given the reason
     * @param merge joins what the one-by-one transactions settled
     * @param describe names an item for the log (its command id and where it was read)
     * @throws RuntimeException a transient failure: the caller redelivers the same items, and what had been committed
     *     before it reads as duplicates then
     */
    public <T, A> A applyOrSplit(
            String what,
            List<T> items,
            Function<List<T>, A> inOneTransaction,
            BiFunction<T, String, A> atFault,
            Function<List<A>, A> merge,
            Function<T, String> describe) {
        try {
            return inOneTransaction.apply(items);
        } catch (RuntimeException ex) {
            if (FailureKind.of(ex) == FailureKind.TRANSIENT) {
                throw redelivered(what, items.size(), ex);
            }
            log.warn(
                    "Applying {} {} in one transaction failed for one of them; applying them one by one",
                    items.size(),
                    what,
                    ex);
        }
        var settled = new ArrayList<A>(items.size());
        for (var item : items) {
            try {
                settled.add(inOneTransaction.apply(List.of(item)));
            } catch (RuntimeException ex) {
                if (FailureKind.of(ex) == FailureKind.TRANSIENT) {
                    throw redelivered(what, items.size(), ex);
                }
                log.error("{} cannot be applied; dead-lettering it", describe.apply(item), ex);
                settled.add(atFault.apply(
                        item,
                        "cannot be applied: "
                                + PoisonCommandException.describe(NestedExceptionUtils.getMostSpecificCause(ex))));
            }
        }
        return merge.apply(settled);
    }

    /** A transaction of the worker committed: the database takes its writes. */
    public void committed() {
        writes.committed();
    }

    /** Notes a failure a poll is redelivered for, and returns it to be thrown. */
    public RuntimeException redelivered(String what, int items, RuntimeException failure) {
        writes.failed(failure);
        readOnlySessions.afterFailure(failure);
        log.warn(
                "Transient failure applying {} {}; the poll will be redelivered after a back-off",
                items,
                what,
                failure);
        return failure;
    }
}
