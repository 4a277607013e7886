package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiTestSupport;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Objects;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * Production runs with the lab off: not one bean, mapping, metric or info entry of {@code dev.orderpipeline.checkoutlab}
 * exists, and a checkout that names a lab parameter is refused with a problem that says so, instead of being quietly
 * run through the pipeline.
 */
class LabOffTests extends ApiTestSupport {

    private static final String LAB_PACKAGE = "dev.orderpipeline.checkoutlab";

    @Autowired
    private ApplicationContext context;

    @Autowired
    private MeterRegistry meters;

    @ParameterizedTest(name = "?{0}")
    @ValueSource(
            strings = {
                "strategy=naive",
                "delayMs=10",
                "maxAttempts=3",
                "strategy=kafka",
                "strategy=db-atomic&delayMs=10&maxAttempts=3"
            })
    void refusesALabParameterAndChecksNothingOut(String query) {
        var alice = newUser();
        var productId = createProduct(10, "4.00");
        var orderId = UUID.fromString(createOrder(alice, productId, 2).get("id").asString());

        var response = api.post("/api/orders/" + orderId + "/checkout?" + query, null, AUTHORIZATION, bearer(alice));

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:lab-off");
        assertThat(problem.get("title").asString()).isEqualTo("Lab parameters on the production checkout");
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        var named = Arrays.stream(query.split("&"))
                .map(parameter -> parameter.substring(0, parameter.indexOf('=')))
                .toList();
        assertThat(problem.get("parameters").values())
                .extracting(JsonNode::asString)
                .containsExactlyElementsOf(named);
        assertThat(problem.get("detail").asString()).contains(named).contains("Nothing was checked out");
        assertNothingCheckedOut(alice, productId, orderId);
    }

    @Test
    void saysNothingOfTheLabInItsInfo() {
        var info = management.get("/actuator/info");

        assertThat(info.status()).as(info::toString).isEqualTo(200);
        assertThat(info.json().has("lab")).as(info::toString).isFalse();
    }

    @Test
    void holdsNoBeanMappingOrMetricOfTheLab() {
        var labBeans = new ArrayList<String>();
        for (var name : context.getBeanDefinitionNames()) {
            var type = context.getType(name, false);
            if (name.startsWith(LAB_PACKAGE)
                    || (type != null && type.getPackageName().startsWith(LAB_PACKAGE))) {
                labBeans.add(name + ": " + type);
            }
        }
        assertThat(labBeans).as("beans of the lab").isEmpty();
        assertThat(context.getBeansOfType(RequestMappingInfoHandlerMapping.class)
                        .values())
                .flatMap(mapping -> mapping.getHandlerMethods().values())
                .noneSatisfy(handler ->
                        assertThat(handler.getBeanType().getPackageName()).startsWith(LAB_PACKAGE));
        assertThat(meters.getMeters())
                .noneSatisfy(meter -> assertThat(meter.getId().getName()).startsWith("lab."));
    }

    /**
     * The order is as it was, nothing was charged or taken, and no command for it reached the topic: a checkout of
     * another order of the same product, published after it on the same partition, arrives without one before it.
     */
    private void assertNothingCheckedOut(String userId, UUID productId, UUID orderId) {
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
        assertThat(jdbc.sql("SELECT count(*) FROM payment WHERE order_id = :id")
                        .param("id", orderId)
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("SELECT stock FROM product WHERE id = :id")
                        .param("id", productId)
                        .query(Integer.class)
                        .single())
                .isEqualTo(10);
        var marker = UUID.fromString(createOrder(userId, productId, 1).get("id").asString());
        assertThat(api.post("/api/orders/" + marker + "/checkout", null, AUTHORIZATION, bearer(userId))
                        .status())
                .isEqualTo(202);
        var records = new ArrayList<ConsumerRecord<String, String>>();
        try (var tap = new CommandTap(broker.getBrokersAsString())) {
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                records.addAll(tap.pollForProduct(productId));
                assertThat(records)
                        .extracting(record ->
                                CommandTap.value(record).get("orderId").asString())
                        .contains(marker.toString());
            });
        }
        assertThat(records)
                .extracting(record -> Objects.requireNonNull(
                                CommandTap.value(record).get("orderId"))
                        .asString())
                .containsExactly(marker.toString());
    }
}
