package dev.orderpipeline.lab.carts;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the carts of a run ended, as the database has them.
 *
 * @param completed carts COMPLETED
 * @param rejected carts REJECTED
 * @param notFinal carts neither
 * @param rejectionsByReason rejected carts by reason
 */
public record CartOutcomes(long completed, long rejected, long notFinal, Map<String, Long> rejectionsByReason) {

    public CartOutcomes {
        rejectionsByReason = Collections.unmodifiableMap(new TreeMap<>(rejectionsByReason));
    }
}
