package dev.orderpipeline.worker;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class CheckoutWorkerApplication {

    public static void main(String[] args) {
        SpringApplication.run(CheckoutWorkerApplication.class, args);
    }
}
