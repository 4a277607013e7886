package dev.orderpipeline.api;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * A Kafka broker and a PostgreSQL server in containers, connected to the application through {@link
 * ServiceConnection} (bootstrap servers, JDBC URL and credentials): what {@link TestOrderApiApplication} starts the
 * API against. Spring starts the containers with the context and stops them with it.
 */
@TestConfiguration(proxyBeanMethods = false)
public class ContainersConfiguration {

    /** The broker's image, the version the project's clients are built for. */
    public static final String KAFKA_IMAGE = "apache/kafka:4.1.2";

    public static final String POSTGRES_IMAGE = "postgres:17";

    @Bean
    @ServiceConnection
    KafkaContainer kafkaContainer() {
        return new KafkaContainer(KAFKA_IMAGE);
    }

    @Bean
    @ServiceConnection
    PostgreSQLContainer postgresContainer() {
        return new PostgreSQLContainer(POSTGRES_IMAGE);
    }
}
