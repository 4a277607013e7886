package dev.orderpipeline.worker;

import dev.orderpipeline.schema.Migrations;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
@ConfigurationPropertiesScan
public class CheckoutWorkerApplication {

    public static void main(String[] args) {
        SpringApplication.run(CheckoutWorkerApplication.class, args);
    }

    /**
     * The schema migrated at start (unless spring.flyway.enabled is false) as every runner migrates it, on sessions of
     * its own (spring.flyway.user in application.yml), not the pool's, whose statement timeout would cancel a long
     * migration.
     */
    @Bean
    FlywayMigrationStrategy migrations() {
        return Migrations::migrate;
    }
}
