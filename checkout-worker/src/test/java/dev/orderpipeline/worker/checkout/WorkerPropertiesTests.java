package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/** A worker configured with values it cannot run with does not start, and says which property to fix. */
class WorkerPropertiesTests {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withUserConfiguration(Settings.class);

    @Test
    void stopsTheStartOnValuesOutOfRangeNamingEachProperty() {
        runner.withPropertyValues(
                        "orderpipeline.worker.max-poll-records=0",
                        "orderpipeline.worker.send-timeout=0s",
                        "orderpipeline.worker.group-id= ")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOf(BindValidationException.class)
                        .hasMessageContaining("Binding validation errors on orderpipeline.worker")
                        .hasMessageContaining("origin \"orderpipeline.worker.max-poll-records\"")
                        .hasMessageContaining("origin \"orderpipeline.worker.send-timeout\"")
                        .hasMessageContaining("origin \"orderpipeline.worker.group-id\""));
    }

    @Test
    void refusesALongestRetryPauseShorterThanTheFirst() {
        runner.withPropertyValues(
                        "orderpipeline.worker.retry-initial-interval=2s", "orderpipeline.worker.retry-max-interval=1s")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .hasMessageContaining("orderpipeline.worker.retry-max-interval must not be shorter"));
    }

    @Test
    void takesTheDefaultForADurationSetEmpty() {
        // what lets the constructor compare the retry pauses without a null check
        runner.withPropertyValues("orderpipeline.worker.retry-max-interval=")
                .run(context -> assertThat(
                                context.getBean(WorkerProperties.class).retryMaxInterval())
                        .isEqualTo(Duration.ofSeconds(10)));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(WorkerProperties.class)
    static class Settings {}
}
