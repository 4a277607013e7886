package dev.orderpipeline.lab.carts;

import dev.orderpipeline.lab.pipeline.ApiClient;
import dev.orderpipeline.lab.pipeline.Target;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where the carts compare's verdicts come from: the invariants module's checker for the carts, order-api's lab for
 * its count of aborted transactions.
 */
final class CartVerdicts {

    private CartVerdicts() {}

    static CartsExperiment.CartJudge judge(Target target) {
        return (initialStock, carts) -> {
            throw new IllegalStateException("the invariants module has no checker for carts yet");
        };
    }

    static @Nullable Long aborted(List<ApiClient> apis, String strategy) {
        return null;
    }
}
