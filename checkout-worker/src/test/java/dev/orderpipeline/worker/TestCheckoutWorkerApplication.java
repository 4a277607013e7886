package dev.orderpipeline.worker;

import org.springframework.boot.SpringApplication;

/**
 * Runs the worker against a Kafka broker and a PostgreSQL started in containers, for trying it out where Docker is
 * available: {@code mvn -pl checkout-worker spring-boot:test-run}.
 */
class TestCheckoutWorkerApplication {

    public static void main(String[] args) {
        SpringApplication.from(CheckoutWorkerApplication::main)
                .with(ContainersConfiguration.class)
                .run(args);
    }
}
