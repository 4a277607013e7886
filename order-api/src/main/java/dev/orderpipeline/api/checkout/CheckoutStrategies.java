package dev.orderpipeline.api.checkout;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/** Every {@link CheckoutStrategy} bean, by name. */
@Component
final class CheckoutStrategies {

    private final Map<String, CheckoutStrategy> byName = new TreeMap<>();

    CheckoutStrategies(List<CheckoutStrategy> strategies) {
        for (var strategy : strategies) {
            var previous = byName.putIfAbsent(strategy.name(), strategy);
            if (previous != null) {
                throw new IllegalStateException("two checkout strategies are named " + strategy.name() + ": "
                        + previous.getClass().getName() + " and "
                        + strategy.getClass().getName());
            }
        }
    }

    /** The strategy of that name (case-insensitive). */
    CheckoutStrategy named(String name) {
        var strategy = byName.get(name.strip().toLowerCase(Locale.ROOT));
        if (strategy == null) {
            throw new UnknownStrategyException(name, names());
        }
        return strategy;
    }

    /** Known names, sorted. */
    List<String> names() {
        return List.copyOf(byName.keySet());
    }
}
