package dev.orderpipeline.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.infra.ConfigurationMetadata;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Every {@code orderpipeline.*} property that the API's configuration files or the docs name is described in the
 * configuration metadata its jar carries, so an IDE completes and explains it.
 */
class ConfigurationMetadataTests {

    @Test
    void describesEveryPropertyTheConfigurationAndTheDocsName() {
        var metadata = ConfigurationMetadata.onClassPath(getClass().getClassLoader());
        // the API's own, the one bound by hand and the topics module's
        assertThat(metadata.described())
                .contains(
                        "orderpipeline.checkout.max-waiters",
                        "orderpipeline.health.cache-time",
                        "orderpipeline.topics.result-partitions");
        var named = metadata.namedIn(Path.of("src", "main", "resources"), Path.of(".."));
        assertThat(named).contains("orderpipeline.requests.max-concurrent");
        assertThat(metadata.described()).containsAll(named);
    }
}
