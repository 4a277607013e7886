package dev.orderpipeline.checkoutlab;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.stereotype.Component;

/** Every {@link LabStrategy} bean, by name. */
@Component
final class LabStrategies {

    private final Map<String, LabStrategy> byName = new TreeMap<>();

    LabStrategies(List<LabStrategy> strategies) {
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
    LabStrategy named(String name) {
        var strategy = byName.get(name.strip().toLowerCase(Locale.ROOT));
        if (strategy == null) {
            throw LabProblem.unknownStrategy(name, names());
        }
        return strategy;
    }

    /** Known names, sorted. */
    List<String> names() {
        return List.copyOf(byName.keySet());
    }
}
