package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.infra.ConfigurationMetadata;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The lab's {@code orderpipeline.lab.*} properties that the docs name are described in the metadata of its jar. */
class LabConfigurationMetadataTests {

    @Test
    void describesEveryLabPropertyTheDocsName() {
        var metadata = ConfigurationMetadata.onClassPath(getClass().getClassLoader());
        assertThat(metadata.described())
                .contains("orderpipeline.lab.enabled", "orderpipeline.lab.check-to-write-delay");
        assertThat(metadata.described())
                .containsAll(metadata.namedIn(Path.of("src", "main", "resources"), Path.of("..")));
    }
}
