package dev.orderpipeline.api.order;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.api.Together;
import java.util.Collections;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code POST /api/orders} with an {@code Idempotency-Key}: a client that sends its request again, after a timeout
 * or twice at once, gets one order. Judged by the orders in the database, not by what the clients were told.
 */
class IdempotentOrderTests extends ApiTestSupport {

    private static final String KEY = "Idempotency-Key";

    @Test
    void answersARetriedCreateWithTheOrderTheFirstOnePlaced() {
        var alice = newUser();
        var product = createProduct(10, "3.00");
        var key = UUID.randomUUID().toString();

        var first = place(alice, key, single(product, 2));
        var retried = place(alice, key, single(product, 2));

        assertThat(first.status()).as(first::toString).isEqualTo(201);
        assertThat(retried.status()).as(retried::toString).isEqualTo(200);
        assertThat(retried.header("Idempotent-Replayed")).contains("true");
        assertThat(first.header("Idempotent-Replayed")).isEmpty();
        assertThat(retried.json().get("id")).isEqualTo(first.json().get("id"));
        assertThat(retried.header("Location")).isEqualTo(first.header("Location"));
        assertThat(ordersOf(alice)).isOne();
    }

    @Test
    void answersWithTheOrderAsItIsNow() {
        var alice = newUser();
        var key = UUID.randomUUID().toString();
        var product = createProduct(10, "3.00");
        var first = place(alice, key, single(product, 1));
        var orderId = UUID.fromString(first.json().get("id").asString());
        decideInDatabase(orderId, "COMPLETED");

        var retried = place(alice, key, single(product, 1));

        assertThat(retried.status()).as(retried::toString).isEqualTo(200);
        assertThat(retried.json().get("status").asString()).isEqualTo("COMPLETED");
    }

    @Test
    void placesOneOrderForRequestsRacingWithOneKey() {
        var alice = newUser();
        var product = createProduct(10, "3.00");
        var key = UUID.randomUUID().toString();
        var racers = 8;

        var answers = Together.run(Collections.nCopies(
                racers, (Callable<ApiClient.Response>) () -> place(alice, key, single(product, 1))));

        assertThat(answers)
                .allSatisfy(answer ->
                        assertThat(answer.status()).as(answer::toString).isIn(200, 201));
        assertThat(answers).filteredOn(answer -> answer.status() == 201).hasSize(1);
        assertThat(answers.stream()
                        .map(answer -> answer.json().get("id").asString())
                        .distinct())
                .hasSize(1);
        assertThat(ordersOf(alice)).isOne();
        assertThat(keysOf(alice)).isOne();
    }

    @Test
    void placesOneCartForRequestsRacingWithOneKey() {
        var alice = newUser();
        var cart = cart(createProduct(10, "3.00"), createProduct(10, "4.00"));
        var key = UUID.randomUUID().toString();

        var answers =
                Together.run(Collections.nCopies(6, (Callable<ApiClient.Response>) () -> place(alice, key, cart)));

        assertThat(answers)
                .allSatisfy(answer ->
                        assertThat(answer.status()).as(answer::toString).isIn(200, 201));
        assertThat(answers.stream()
                        .map(answer -> answer.json().get("id").asString())
                        .distinct())
                .hasSize(1);
        assertThat(ordersOf(alice)).isOne();
        assertThat(jdbc.sql("SELECT count(*) FROM order_line l JOIN orders o ON o.id = l.order_id"
                                + " WHERE o.user_id = :user")
                        .param("user", alice)
                        .query(Long.class)
                        .single())
                .isEqualTo(2);
    }

    @Test
    void refusesTheSameKeyWithAnotherRequestAndPlacesNothing() {
        var alice = newUser();
        var product = createProduct(10, "3.00");
        var key = UUID.randomUUID().toString();
        var first = place(alice, key, single(product, 1));

        var otherQuantity = place(alice, key, single(product, 2));
        var asACart = place(alice, key, cart(product, createProduct(10, "4.00")));

        for (var refused : new ApiClient.Response[] {otherQuantity, asACart}) {
            assertThat(refused.status()).as(refused::toString).isEqualTo(422);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            var problem = refused.json();
            assertThat(problem.get("type").asString()).isEqualTo("urn:order-pipeline:problem:idempotency-key-reused");
            assertThat(problem.get("orderId")).isEqualTo(first.json().get("id"));
        }
        assertThat(ordersOf(alice)).isOne();
    }

    @Test
    void keepsEachCallersKeysApart() {
        var alice = newUser();
        var bob = newUser();
        var product = createProduct(10, "3.00");
        var key = UUID.randomUUID().toString();

        var hers = place(alice, key, single(product, 1));
        var his = place(bob, key, single(product, 1));

        assertThat(his.status()).as(his::toString).isEqualTo(201);
        assertThat(his.json().get("id")).isNotEqualTo(hers.json().get("id"));
        assertThat(his.json().get("userId").asString()).isEqualTo(bob);
    }

    @Test
    void treatsAKeyPastItsRetentionAsNewAndForgetsExpiredKeys() {
        var alice = newUser();
        var product = createProduct(10, "3.00");
        var key = UUID.randomUUID().toString();
        var first = place(alice, key, single(product, 1));
        expire(alice);

        var again = place(alice, key, single(product, 1));

        assertThat(again.status()).as(again::toString).isEqualTo(201);
        assertThat(again.json().get("id")).isNotEqualTo(first.json().get("id"));
        assertThat(ordersOf(alice)).isEqualTo(2);
        // the key now names the new order, for the retention again
        assertThat(jdbc.sql("SELECT order_id FROM order_idempotency_key WHERE user_id = :user"
                                + " AND expires_at > now() + interval '23 hours'")
                        .param("user", alice)
                        .query(UUID.class)
                        .single())
                .hasToString(again.json().get("id").asString());

        expire(alice);
        var forgotten = jdbc.sql("SELECT forget_expired_order_idempotency_keys(1000)")
                .query(Integer.class)
                .single();

        assertThat(forgotten).isPositive();
        assertThat(keysOf(alice)).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"has space", "with,comma", "semi;colon", "quote\"d"})
    void refusesAKeyOutsideItsCharactersAndPlacesNothing(String key) {
        var alice = newUser();
        var product = createProduct(10, "3.00");

        var refused = place(alice, key, single(product, 1));

        assertThat(refused.status()).as(refused::toString).isEqualTo(400);
        assertThat(refused.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:validation-failed");
        assertThat(refused.json().at("/errors/0/field").asString()).isEqualTo(KEY);
        assertThat(ordersOf(alice)).isZero();
    }

    @Test
    void refusesAKeyLongerThan255Characters() {
        var alice = newUser();
        var product = createProduct(10, "3.00");

        var longest = place(alice, "k".repeat(255), single(product, 1));
        var tooLong = place(alice, "k".repeat(256), single(product, 1));

        assertThat(longest.status()).as(longest::toString).isEqualTo(201);
        assertThat(tooLong.status()).as(tooLong::toString).isEqualTo(400);
        assertThat(ordersOf(alice)).isOne();
    }

    @Test
    void usesNoKeyForARequestItRefuses() {
        var alice = newUser();
        var key = UUID.randomUUID().toString();
        var unknown = UUID.randomUUID();

        var refused = place(alice, key, single(unknown, 1));
        var product = createProduct(10, "3.00");
        var placed = place(alice, key, single(product, 1));

        assertThat(refused.status()).as(refused::toString).isEqualTo(404);
        assertThat(placed.status()).as(placed::toString).isEqualTo(201);
        assertThat(ordersOf(alice)).isOne();
    }

    @Test
    void placesAnOrderForEveryRequestWithoutAKey() {
        var alice = newUser();
        var product = createProduct(10, "3.00");

        IntStream.range(0, 2)
                .forEach(i -> assertThat(api.post("/api/orders", single(product, 1), AUTHORIZATION, bearer(alice))
                                .status())
                        .isEqualTo(201));

        assertThat(ordersOf(alice)).isEqualTo(2);
        assertThat(keysOf(alice)).isZero();
    }

    private ApiClient.Response place(String userId, String key, String body) {
        return api.post("/api/orders", body, AUTHORIZATION, bearer(userId), KEY, key);
    }

    private static String single(UUID product, int quantity) {
        return """
                {"productId": "%s", "quantity": %d}""".formatted(product, quantity);
    }

    private static String cart(UUID first, UUID second) {
        return """
                {"lines": [{"productId": "%s", "quantity": 1}, {"productId": "%s", "quantity": 2}]}""".formatted(first, second);
    }

    private void expire(String userId) {
        jdbc.sql("UPDATE order_idempotency_key SET created_at = now() - interval '25 hours',"
                        + " expires_at = now() - interval '1 hour' WHERE user_id = :user")
                .param("user", userId)
                .update();
    }

    private long keysOf(String userId) {
        return jdbc.sql("SELECT count(*) FROM order_idempotency_key WHERE user_id = :user")
                .param("user", userId)
                .query(Long.class)
                .single();
    }
}
