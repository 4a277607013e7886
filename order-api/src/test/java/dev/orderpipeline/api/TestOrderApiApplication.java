package dev.orderpipeline.api;

import org.springframework.boot.SpringApplication;

/**
 * Starts the API on this machine against a Kafka broker and a PostgreSQL server in containers, for trying it out
 * from the IDE or with {@code mvn -pl order-api spring-boot:test-run} where Docker is available. The containers come
 * from {@link ContainersConfiguration}; the schema is migrated at startup as always. No worker runs, so checkouts
 * are accepted (202) and stay CREATED. Nothing else changes: same configuration (the lab off), port 8080, Swagger
 * UI at {@code /swagger-ui.html}.
 */
public final class TestOrderApiApplication {

    private TestOrderApiApplication() {}

    public static void main(String[] args) {
        SpringApplication.from(OrderApiApplication::main)
                .with(ContainersConfiguration.class)
                .run(args);
    }
}
