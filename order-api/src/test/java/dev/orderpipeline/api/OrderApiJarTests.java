package dev.orderpipeline.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The executable jar that production and the image run holds the product and nothing of the lab: no class of {@code
 * dev.orderpipeline.checkoutlab}, not its schema callback, not the {@code invariants} module. The lab reaches
 * order-api only on its own stacks, which add checkout-lab's jar to the class path; production cannot even load it.
 * Run by failsafe, after the jar is packaged.
 */
class OrderApiJarTests {

    /** {@code ${project.build.directory}/${project.build.finalName}.jar}, from the build. */
    private static final Path JAR =
            Path.of(System.getProperty("orderpipeline.test.executable-jar", "target/order-api.jar"));

    @Test
    void holdsTheApplicationAndNothingOfTheLab() throws IOException {
        List<String> entries;
        try (var jar = new JarFile(JAR.toFile())) {
            entries = jar.stream().map(ZipEntry::getName).toList();
        }

        assertThat(entries).contains("BOOT-INF/classes/dev/orderpipeline/api/OrderApiApplication.class");
        assertThat(entries)
                .noneMatch(entry -> entry.contains("checkoutlab"))
                .noneMatch(entry -> entry.contains("db/lab/"))
                .noneMatch(entry -> entry.startsWith("BOOT-INF/lib/invariants-"))
                .noneMatch(entry -> entry.startsWith("BOOT-INF/lib/checkout-lab"));
    }
}
