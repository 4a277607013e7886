package dev.orderpipeline.api.lab;

import dev.orderpipeline.contract.invariant.InvariantChecker;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class LabConfiguration {

    @Bean
    InvariantChecker invariantChecker(DataSource dataSource) {
        return new InvariantChecker(dataSource);
    }
}
