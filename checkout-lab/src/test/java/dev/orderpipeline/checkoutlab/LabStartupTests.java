package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.orderpipeline.api.OrderApiApplication;
import dev.orderpipeline.infra.Postgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.NestedExceptionUtils;

/**
 * The lab oversells and charges twice on purpose and relaxes the schema of its database: it refuses to start beside
 * a production token source, which says that the data behind this instance is not the lab's.
 */
class LabStartupTests {

    @Test
    void refusesToStartBesideAnIdentityProvidersKeys() {
        var failure = start("spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:1/jwks");

        assertThat(failure).isNotNull();
        var cause = NestedExceptionUtils.getMostSpecificCause(failure);
        assertThat(cause).isInstanceOf(IllegalStateException.class);
        assertThat(cause.getMessage())
                .contains("The lab is on", "orderpipeline.lab.enabled=true", "jwk-set-uri", "production token source");
    }

    @Test
    void refusesToStartBesideAnIssuer() {
        var failure = start("spring.security.oauth2.resourceserver.jwt.issuer-uri=http://127.0.0.1:1/issuer");

        assertThat(NestedExceptionUtils.getMostSpecificCause(failure).getMessage())
                .contains("The lab is on", "issuer-uri");
    }

    @Test
    void refusesToStartBesideAnIdentityProvidersPublicKey(@TempDir Path directory) throws Exception {
        // a readable key, so that nothing but the lab's guard can stop the start
        var generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        var key = directory.resolve("issuer.pub");
        Files.writeString(
                key,
                "-----BEGIN PUBLIC KEY-----\n"
                        + Base64.getMimeEncoder()
                                .encodeToString(
                                        generator.generateKeyPair().getPublic().getEncoded())
                        + "\n-----END PUBLIC KEY-----\n");

        var failure = start("spring.security.oauth2.resourceserver.jwt.public-key-location=" + key.toUri());

        var cause = NestedExceptionUtils.getMostSpecificCause(failure);
        assertThat(cause).isInstanceOf(IllegalStateException.class);
        assertThat(cause.getMessage()).contains("The lab is on", "public-key-location", "production token source");
    }

    /** Starts the whole application with the lab on and {@code tokenSource}; what it failed with, or null. */
    private static Throwable start(String tokenSource) {
        var arguments = new ArrayList<String>();
        arguments.add("--server.port=0");
        arguments.add("--spring.main.banner-mode=off");
        arguments.add("--orderpipeline.lab.enabled=true");
        arguments.add("--" + tokenSource);
        // a database of its own: were the lab to start, its schema callback would relax what it migrates
        arguments.add("--spring.datasource.url=" + Postgres.forTests().createDatabase("order_api_lab_refused"));
        arguments.add("--spring.datasource.username=" + Postgres.forTests().user());
        var password = Postgres.forTests().password();
        if (password != null) {
            arguments.add("--spring.datasource.password=" + password);
        }
        // nothing listens there: the failure must come before any broker is needed
        arguments.add("--spring.kafka.bootstrap-servers=127.0.0.1:1");
        return catchThrowable(() -> {
            try (var context =
                    new SpringApplicationBuilder(OrderApiApplication.class).run(arguments.toArray(String[]::new))) {
                assertThat(context.isRunning())
                        .as("started with the lab beside a token source")
                        .isFalse();
            }
        });
    }
}
