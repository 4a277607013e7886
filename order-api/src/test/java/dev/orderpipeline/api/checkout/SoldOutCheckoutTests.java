package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.ProductStock;
import dev.orderpipeline.contract.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The door: the worker's published stock (played here by a producer on the real broker) refuses checkouts of a
 * sold-out product without a command, for at most {@code orderpipeline.checkout.sold-out-for} (2 s by default).
 */
class SoldOutCheckoutTests extends ApiTestSupport {

    @Autowired
    private StockDoor door;

    @Autowired
    private CheckoutProperties properties;

    @Test
    void answersACheckoutOfASoldOutProductAtTheDoorWithoutACommand() {
        var alice = newUser();
        var productId = createProduct(0, "9.90");
        var orderId = UUID.fromString(createOrder(alice, productId, 1).get("id").asString());
        publishStock(productId, 0);

        var refused = checkout(orderId, alice);
        var waited = api.post(
                "/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice), "Prefer", "wait=5");

        for (var response : List.of(refused, waited)) {
            assertThat(response.status()).as(response::toString).isEqualTo(409);
            var problem = response.json();
            assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:sold-out");
            assertThat(problem.get("title").asString()).isEqualTo("Product sold out");
            assertThat(problem.get("orderId").asString()).isEqualTo(orderId.toString());
            assertThat(problem.get("productId").asString()).isEqualTo(productId.toString());
            assertThat(problem.get("available").asInt()).isZero();
        }
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
        try (var tap = new CommandTap(broker.getBrokersAsString())) {
            var commands = new ArrayList<ConsumerRecord<String, String>>();
            // every command published so far is on the topic by now; a few polls read to its end
            for (int i = 0; i < 10; i++) {
                commands.addAll(tap.pollForProduct(productId));
            }
            assertThat(commands).isEmpty();
        }
    }

    @Test
    void refusesAnOrderItPlacedBeforeReadingItButOnlyForItsOwner() {
        var alice = newUser();
        var productId = createProduct(0, "9.90");
        var orderId = UUID.fromString(createOrder(alice, productId, 1).get("id").asString());
        publishStock(productId, 0);
        // the row now says another owner: a checkout that read it would be answered 404
        jdbc.sql("UPDATE orders SET user_id = 'someone-else' WHERE id = :id")
                .param("id", orderId)
                .update();

        var owner = checkout(orderId, alice);
        var stranger = checkout(orderId, newUser());

        assertThat(owner.status()).as(owner::toString).isEqualTo(409);
        assertThat(owner.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:sold-out");
        assertThat(stranger.status()).as(stranger::toString).isEqualTo(404);
    }

    @Test
    void reopensARestockedProductWithinTheBound() {
        var alice = newUser();
        var productId = createProduct(0, "9.90");
        var orderId = UUID.fromString(createOrder(alice, productId, 1).get("id").asString());
        publishStock(productId, 0);
        assertThat(checkout(orderId, alice).status()).isEqualTo(409);

        var restocked = api.post("/api/products/" + productId + "/restock", """
                {"units": 5}""");

        assertThat(restocked.status()).as(restocked::toString).isEqualTo(200);
        assertThat(restocked.json().get("stock").asInt()).isEqualTo(5);
        var reopened = Instant.now();
        await().atMost(properties.soldOutFor().plusSeconds(10))
                .until(() -> checkout(orderId, alice).status() == 202);
        assertThat(Duration.between(reopened, Instant.now()))
                .isLessThan(properties.soldOutFor().plusSeconds(5));
        try (var tap = new CommandTap(broker.getBrokersAsString())) {
            assertThat(tap.awaitFor(orderId).key()).isEqualTo(productId.toString());
        }
    }

    @Test
    void refusesARestockOfNoUnitsAndChangesNothing() {
        var productId = createProduct(3, "9.90");

        var response = api.post("/api/products/" + productId + "/restock", """
                {"units": 0}""");
        var missing = api.post("/api/products/" + UUID.randomUUID() + "/restock", """
                {"units": 1}""");
        var buyer =
                api.post("/api/products/" + productId + "/restock", "{\"units\": 1}", AUTHORIZATION, bearer(newUser()));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:validation-failed");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(buyer.status()).isEqualTo(403);
        assertThat(jdbc.sql("SELECT stock FROM product WHERE id = :id")
                        .param("id", productId)
                        .query(Integer.class)
                        .single())
                .isEqualTo(3);
    }

    @Test
    void letsACheckoutThroughOnceTheSoldOutIsStaleAndPublishesTheSameCommandOnRetries() {
        var alice = newUser();
        var productId = createProduct(0, "9.90");
        var orderId = UUID.fromString(createOrder(alice, productId, 1).get("id").asString());
        publishStock(productId, 0);
        assertThat(checkout(orderId, alice).status()).isEqualTo(409);

        // nobody answers for the worker here, so the sold out ages: one checkout gets through, then another later
        await().atMost(properties.soldOutFor().plusSeconds(10))
                .until(() -> checkout(orderId, alice).status() == 202);
        await().atMost(properties.soldOutFor().multipliedBy(2).plusSeconds(10))
                .until(() -> checkout(orderId, alice).status() == 202);

        // a client that retried through the refusals never had more than the order's one command sent: the worker
        // applies it once
        try (var tap = new CommandTap(broker.getBrokersAsString())) {
            var commands = new ArrayList<ConsumerRecord<String, String>>();
            await().atMost(15, TimeUnit.SECONDS).until(() -> {
                commands.addAll(tap.pollFor(orderId));
                return commands.size() >= 2;
            });
            assertThat(commands)
                    .extracting(CommandTap::commandId)
                    .containsOnly(CheckoutCommand.idFor(orderId).toString());
        }
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
    }

    @Test
    void leavesCartsToTheirSaga() {
        var alice = newUser();
        var soldOut = createProduct(0, "9.90");
        var other = createProduct(5, "9.90");
        var created = api.post("/api/orders", """
                {"lines": [{"productId": "%s", "quantity": 1}, {"productId": "%s", "quantity": 1}]}
                """.formatted(soldOut, other), AUTHORIZATION, bearer(alice));
        assertThat(created.status()).as(created::toString).isEqualTo(201);
        publishStock(soldOut, 0);

        var response = checkout(UUID.fromString(created.json().get("id").asString()), alice);

        assertThat(response.status()).as(response::toString).isEqualTo(202);
    }

    private ApiClient.Response checkout(UUID orderId, String user) {
        return api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(user));
    }

    /** Publishes the product's stock as the worker does after a commit, and waits until the door knows it. */
    private void publishStock(UUID productId, int stock) {
        var published = new ProductStock(productId, stock, Instant.now());
        try (var producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()),
                new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(
                            Topics.PRODUCT_STOCK, published.key(), CommandTap.JSON.writeValueAsString(published)))
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception ex) {
            throw new AssertionError("could not publish the stock", ex);
        }
        if (stock == 0) {
            await().atMost(10, TimeUnit.SECONDS).until(() -> door.refused(productId, 1) != null);
        }
    }
}
