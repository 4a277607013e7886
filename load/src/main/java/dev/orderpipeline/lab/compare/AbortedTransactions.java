package dev.orderpipeline.lab.compare;

import dev.orderpipeline.lab.pipeline.ApiClient;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * order-api's lab counts, per strategy, the transactions PostgreSQL aborted as deadlock victims and the lab ran
 * again ({@code lab.checkout.aborted}); this reads that counter from each replica's Prometheus endpoint and adds
 * the replicas up.
 */
final class AbortedTransactions {

    private static final String METER = "lab_checkout_aborted_total";

    private AbortedTransactions() {}

    /** The count of {@code strategy} over all replicas; {@code null} when no replica has the meter for it. */
    static @Nullable Long count(List<ApiClient> apis, String strategy) {
        var counts = apis.stream()
                .map(api -> parse(api.metrics(), strategy))
                .filter(Objects::nonNull)
                .toList();
        return counts.isEmpty()
                ? null
                : counts.stream().mapToLong(Long::longValue).sum();
    }

    /** The counter of {@code strategy} in a Prometheus text, or {@code null} when it has none. */
    static @Nullable Long parse(String prometheus, String strategy) {
        var matcher = Pattern.compile(
                        "^" + METER + "\\{[^}]*strategy=\"" + Pattern.quote(strategy) + "\"[^}]*}\\s+(\\S+)",
                        Pattern.MULTILINE)
                .matcher(prometheus);
        Long total = null;
        while (matcher.find()) {
            total = (total == null ? 0 : total) + Math.round(Double.parseDouble(matcher.group(1)));
        }
        return total;
    }
}
