package dev.orderpipeline.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.infra.ConfigurationMetadata;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Every {@code orderpipeline.*} property that the worker's configuration files or the docs name is described in the
 * configuration metadata its jar carries, so an IDE completes and explains it.
 */
class ConfigurationMetadataTests {

    @Test
    void describesEveryPropertyTheConfigurationAndTheDocsName() {
        var metadata = ConfigurationMetadata.onClassPath(getClass().getClassLoader());
        // the worker's own and the topics module's
        assertThat(metadata.described())
                .contains(
                        "orderpipeline.worker.group-id",
                        "orderpipeline.carts.sweep-batch",
                        "orderpipeline.topics.cart-partitions");
        var named = metadata.namedIn(Path.of("src", "main", "resources"), Path.of(".."));
        assertThat(named).contains("orderpipeline.worker.instance-id", "orderpipeline.carts.reservation-timeout");
        assertThat(metadata.described()).containsAll(named);
    }
}
