package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.api.Together;
import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;

class KafkaCheckoutTests extends ApiTestSupport {

    @Autowired
    private MeterRegistry meters;

    @Test
    void acceptsTheCheckoutAndPublishesACommandKeyedByProduct() {
        var alice = newUser();
        var productId = createProduct(10, "12.50");
        var orderId = UUID.fromString(createOrder(alice, productId, 3).get("id").asString());

        var response = api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice));

        assertThat(response.status()).as(response::toString).isEqualTo(202);
        assertThat(response.header("Location")).contains("/api/orders/" + orderId);
        assertThat(response.header("Preference-Applied")).isEmpty();
        // written whole, with its length: not chunked
        assertThat(response.header("Content-Length"))
                .contains(Integer.toString(response.body().getBytes(StandardCharsets.UTF_8).length));
        assertThat(response.header("Transfer-Encoding")).isEmpty();
        var body = response.json();
        assertThat(body.get("orderId").asString()).isEqualTo(orderId.toString());
        assertThat(body.get("commandId").asString())
                .isEqualTo(CheckoutCommand.idFor(orderId).toString());
        assertThat(body.get("status").asString()).isEqualTo("CREATED");

        var record = awaitCommands(orderId, 1).getFirst();
        assertThat(record.key()).isEqualTo(productId.toString());
        assertThat(CommandTap.commandId(record))
                .isEqualTo(CheckoutCommand.idFor(orderId).toString());
        assertThat(CommandTap.header(record, Headers.COMMAND_TYPE)).isEqualTo("checkout");
        assertThat(record.headers().lastHeader("__TypeId__")).isNull();
        var command = CommandTap.JSON.readValue(record.value(), CheckoutCommand.class);
        assertThat(command)
                .isEqualTo(new CheckoutCommand(
                        CheckoutCommand.idFor(orderId), orderId, productId, alice, 3, command.requestedAt()));
        assertThat(command.requestedAt()).isBefore(Instant.now().plusSeconds(1));
        // the API hands the checkout on and changes nothing itself
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
        assertThat(meters.get("checkout.requests")
                        .tag("outcome", "accepted")
                        .timer()
                        .count())
                .isPositive();
        // one checkout, so no strategy to tell apart: the timer's only tag is the outcome
        assertThat(meters.find("checkout.requests").meters())
                .allSatisfy(meter -> assertThat(meter.getId().getTags())
                        .extracting(Tag::getKey)
                        .containsExactly("outcome"));
    }

    @Test
    void createsThePipelinesTopicsWithTheContractsPartitionCountsWhenNothingIsConfigured() throws Exception {
        try (var admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()))) {
            var topics = admin.describeTopics(
                            List.of(Topics.CHECKOUT_COMMANDS, Topics.CHECKOUT_RESULTS, Topics.CHECKOUT_COMMANDS_DLT))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS);

            assertThat(topics.get(Topics.CHECKOUT_COMMANDS).partitions()).hasSize(Topics.CHECKOUT_COMMANDS_PARTITIONS);
            assertThat(topics.get(Topics.CHECKOUT_RESULTS).partitions()).hasSize(Topics.CHECKOUT_RESULTS_PARTITIONS);
            assertThat(topics.get(Topics.CHECKOUT_COMMANDS_DLT).partitions())
                    .hasSize(Topics.CHECKOUT_COMMANDS_PARTITIONS);
        }
    }

    @Test
    void publishesTheSameCommandIdWhenACreatedOrderIsCheckedOutAgain() {
        var alice = newUser();
        var orderId = createOrderId(alice);

        var first = api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice));
        var second = api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice));

        assertThat(first.status()).isEqualTo(202);
        assertThat(second.status()).isEqualTo(202);
        assertThat(second.json().get("commandId")).isEqualTo(first.json().get("commandId"));
        var records = awaitCommands(orderId, 2);
        assertThat(records)
                .extracting(CommandTap::commandId)
                .containsOnly(CheckoutCommand.idFor(orderId).toString());
        assertThat(records)
                .extracting(record -> CommandTap.value(record).get("commandId").asString())
                .containsOnly(CheckoutCommand.idFor(orderId).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"COMPLETED", "REJECTED"})
    void refusesToCheckOutAnOrderThatIsNotCreated(String status) {
        var alice = newUser();
        var orderId = createOrderId(alice);
        decideInDatabase(orderId, status);

        var response = api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice));

        assertThat(response.status()).isEqualTo(409);
        var problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:order-not-checkoutable");
        assertThat(problem.get("title").asString()).isEqualTo("Order cannot be checked out");
        assertThat(problem.get("status").asInt()).isEqualTo(409);
        assertThat(problem.get("detail").asString()).contains(orderId.toString(), status);
        assertThat(problem.get("orderId").asString()).isEqualTo(orderId.toString());
        // the problem's own "status" member is the HTTP status (RFC 9457), so the order's status has its own name
        assertThat(problem.get("orderStatus").asString()).isEqualTo(status);
        assertThat(statusInDatabase(orderId)).isEqualTo(status);
    }

    @Test
    void hidesAnotherUsersOrderFromCheckout() {
        var orderId = createOrderId(newUser());

        var response = api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(newUser()));
        var missing =
                api.post("/api/orders/" + UUID.randomUUID() + "/checkout", null, AUTHORIZATION, bearer(newUser()));

        for (var refused : List.of(response, missing)) {
            assertThat(refused.status()).as(refused::toString).isEqualTo(404);
            assertThat(refused.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:order-not-found");
        }
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
    }

    @Test
    void refusesACheckoutWithoutCaller() {
        var orderId = createOrderId(newUser());

        var response = ApiClient.anonymous(port()).post("/api/orders/" + orderId + "/checkout", null);

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.json().get("type").asString())
                .isEqualTo("urn:order-pipeline:problem:authentication-required");
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
    }

    @Test
    void acceptsThreeHundredCheckoutsAtOnceAndPublishesOneCommandPerOrder() {
        var productId = createProduct(100, "9.99");
        var buyers = jdbc.sql("""
                        INSERT INTO orders (id, user_id, product_id, quantity)
                        SELECT gen_random_uuid(), :prefix || n, :productId, 1
                          FROM generate_series(1, 300) AS n
                        RETURNING id, user_id
                        """)
                .param("prefix", "buyer-" + UUID.randomUUID() + "-")
                .param("productId", productId)
                .query((row, rowNumber) -> Map.entry(row.getObject("id", UUID.class), row.getString("user_id")))
                .list();
        var checkouts = new ArrayList<Callable<ApiClient.Response>>();
        for (var buyer : buyers) {
            checkouts.add(() -> api.post(
                    "/api/orders/" + buyer.getKey() + "/checkout", null, AUTHORIZATION, bearer(buyer.getValue())));
        }

        var responses = Together.run(checkouts);

        assertThat(responses).extracting(ApiClient.Response::status).containsOnly(202);
        var records = new ArrayList<ConsumerRecord<String, String>>();
        try (var tap = new CommandTap(broker.getBrokersAsString())) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                records.addAll(tap.pollForProduct(productId));
                assertThat(records).hasSize(buyers.size());
            });
        }
        assertThat(records)
                .extracting(CommandTap::commandId)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(buyers.stream()
                        .map(buyer -> CheckoutCommand.idFor(buyer.getKey()).toString())
                        .toList());
        // the API itself changes nothing: deciding is the worker's job, and no worker runs in this module's tests
        assertThat(jdbc.sql("SELECT stock FROM product WHERE id = :id")
                        .param("id", productId)
                        .query(Integer.class)
                        .single())
                .isEqualTo(100);
        assertThat(jdbc.sql("SELECT count(*) FROM orders WHERE product_id = :id AND status = 'CREATED'")
                        .param("id", productId)
                        .query(Long.class)
                        .single())
                .isEqualTo(300);
    }

    private List<ConsumerRecord<String, String>> awaitCommands(UUID orderId, int count) {
        var records = new ArrayList<ConsumerRecord<String, String>>();
        try (var tap = new CommandTap(broker.getBrokersAsString())) {
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                records.addAll(tap.pollFor(orderId));
                assertThat(records).hasSize(count);
            });
        }
        return records;
    }
}
