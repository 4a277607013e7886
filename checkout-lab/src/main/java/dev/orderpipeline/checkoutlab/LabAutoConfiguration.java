package dev.orderpipeline.checkoutlab;

import com.zaxxer.hikari.HikariDataSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.core.env.Environment;

/**
 * Switches the lab on inside order-api, and only when {@code orderpipeline.lab.enabled=true}: otherwise not one
 * bean, mapping or migration of this package exists. Its jar is on order-api's class path only on the lab's stacks,
 * and its package lies outside the application's, so component scanning never finds it; this auto-configuration is
 * the only door.
 *
 * <p>On, it refuses to start beside a production token source (the strategies oversell and charge twice by
 * design, and a database that a real identity provider guards is not the lab's), warns in the log, says so in
 * {@code /actuator/info}, relaxes the schema of the database it migrates with the lab's callback ({@code
 * db/lab/afterMigrate.sql}), and lets the sessions wait as long as the lab's clients do ({@link #LAB_SESSIONS}).
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(LabAutoConfiguration.ENABLED)
@EnableConfigurationProperties(LabProperties.class)
@ComponentScan
class LabAutoConfiguration {

    static final String ENABLED = "orderpipeline.lab.enabled";

    /** Where the lab's schema callback lives; added to Flyway's locations only here. */
    static final String SCHEMA_LOCATION = "classpath:db/lab";

    private static final List<String> PRODUCTION_TOKEN_SOURCES = List.of(
            "spring.security.oauth2.resourceserver.jwt.jwk-set-uri",
            "spring.security.oauth2.resourceserver.jwt.issuer-uri",
            // a key file of the identity provider's: the decoder verifies real tokens with it as with the others
            "spring.security.oauth2.resourceserver.jwt.public-key-location");

    /**
     * Appended to the startup options of the API's sessions (a later {@code -c} of a setting wins): the lab's
     * strategies queue every buyer of a product on its row on purpose, which is what it measures, so a session waits
     * for a lock about as long as a lab client waits for its answer, not the two seconds a buyer's request does.
     */
    static final String LAB_SESSIONS = " -c lock_timeout=1min -c statement_timeout=2min";

    private static final Logger log = LoggerFactory.getLogger(LabAutoConfiguration.class);

    LabAutoConfiguration(Environment environment) {
        for (var property : PRODUCTION_TOKEN_SOURCES) {
            var value = environment.getProperty(property);
            if (value != null && !value.isBlank()) {
                throw new IllegalStateException("The lab is on (" + ENABLED + "=true) while " + property
                        + " names a production token source. The lab's strategies oversell and charge twice on"
                        + " purpose and its schema relaxes the database's constraints: run it only on its own"
                        + " stack, with the development key, or switch it off.");
            }
        }
        log.warn(
                "The lab is ON ({}=true): checkouts that name a strategy run the lab's database-lock strategies,"
                        + " some of them wrong on purpose, and the database's schema is relaxed for them. Never"
                        + " run this beside production data.",
                ENABLED);
    }

    @Bean
    static BeanPostProcessor labSessions() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                // after Boot bound spring.datasource.hikari.*, before the pool opens its first connection
                if (bean instanceof HikariDataSource pool) {
                    var options = pool.getDataSourceProperties().getProperty("options", "");
                    pool.addDataSourceProperty("options", options + LAB_SESSIONS);
                }
                return bean;
            }
        };
    }

    @Bean
    FlywayConfigurationCustomizer labSchema() {
        // a callback location, not a migration location: the lab's statements run after every migrate and are not
        // recorded in the schema history, which stays the production one
        return configuration -> {
            var locations = new ArrayList<String>();
            for (var location : configuration.getCallbackLocations()) {
                locations.add(location.getDescriptor());
            }
            locations.add(SCHEMA_LOCATION);
            configuration.callbackLocations(locations.toArray(String[]::new));
        };
    }

    @Bean
    InfoContributor labInfo(LabStrategies strategies) {
        return info -> info.withDetail("lab", Map.of("enabled", true, "strategies", strategies.names()));
    }
}
