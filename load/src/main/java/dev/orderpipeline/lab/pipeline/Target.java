package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.lab.measure.ResourceSampler;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** The pipeline a run drives: its API replicas, and what the lab can see of the rest. */
public sealed interface Target extends AutoCloseable permits StackTarget, UrlTarget {

    /** One client per API replica; checkouts go round-robin over them. */
    List<ApiClient> apis();

    /** Direct access to the pipeline's database, or {@code null} when the lab has none (URLs given without it). */
    @Nullable
    Database database();

    /** The Kafka cluster, for the lab's consumer of results; {@code null} when unknown. */
    @Nullable
    String bootstrapServers();

    /** The app processes whose CPU and memory the lab samples (empty when it did not start them). */
    List<ResourceSampler.Watched> processes();

    /** Where the target is, for the report: how many processes of each kind, the URLs. */
    Map<String, String> description();

    /** The database's verdict on a product: read directly, else through order-api's lab endpoint. */
    default InvariantReport invariants(UUID productId, int initialStock) {
        var database = database();
        return database != null
                ? database.invariants(productId, initialStock)
                : apis().getFirst().invariants(productId, initialStock);
    }

    /** Orders of the products not COMPLETED or REJECTED yet. */
    default long ordersNotFinal(Collection<UUID> productIds) {
        var database = database();
        return database != null
                ? database.ordersNotFinal(productIds)
                : productIds.stream()
                        .mapToLong(productId ->
                                apis().getFirst().invariants(productId, 0).ordersNotFinal())
                        .sum();
    }

    /** Stops what the lab started; leaves a given pipeline alone. */
    @Override
    void close();
}
