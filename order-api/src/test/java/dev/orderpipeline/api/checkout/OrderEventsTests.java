package dev.orderpipeline.api.checkout;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.contract.CheckoutOutcome;
import dev.orderpipeline.contract.RejectReason;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.test.utils.ContainerTestUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/orders/{id}/events}: the order's state now, then its decision from the results topic, as server-sent
 * events. A test-side worker decides orders in the database and publishes their results on the real broker. The test
 * context allows 3 streams at once ({@code orderpipeline.checkout.events.max-streams}) and beats every 500 ms
 * ({@code orderpipeline.checkout.events.heartbeat}).
 */
class OrderEventsTests extends ApiTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Autowired
    private KafkaListenerEndpointRegistry listeners;

    @Autowired
    private OrderEventStreams streams;

    private FakeWorker worker;

    @BeforeEach
    void resultsListenerIsAssigned() {
        // the listener starts at the end of the topic: a result published before it is assigned would be missed
        ContainerTestUtils.waitForAssignment(
                Objects.requireNonNull(listeners.getListenerContainer(CheckoutResultListener.LISTENER_ID)), 3);
        worker = new FakeWorker(broker.getBrokersAsString(), jdbc);
    }

    @AfterEach
    void everyStreamIsClosed() {
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(streams.open()).isZero());
    }

    @Test
    void streamsTheOrderThenItsDecisionWhenTheCheckoutIsDecidedAndEnds() throws Exception {
        var alice = newUser();
        var orderId = createOrderId(alice);
        var stream = open(orderId, alice);
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        var lines = CompletableFuture.supplyAsync(() -> stream.body().toList());

        var decision = worker.respond(orderId, CheckoutOutcome.COMPLETED, null, true, List.of());
        var checkout = api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice));
        assertThat(checkout.status()).as(checkout::toString).isEqualTo(202);
        decision.get(20, TimeUnit.SECONDS);

        // the stream ends by itself once the decision is sent
        var events = events(lines.get(20, TimeUnit.SECONDS));
        assertThat(events).extracting(Event::name).containsExactly("order", "decided");
        assertThat(events.get(0).data().get("status").asString()).isEqualTo("CREATED");
        assertThat(events.get(1).data().get("status").asString()).isEqualTo("COMPLETED");
        assertThat(events.get(1).data().get("id").asString()).isEqualTo(orderId.toString());
        assertThat(events).extracting(Event::retry).containsOnly("1000");
    }

    @Test
    void sendsTheDecisionOfADecidedOrderAtOnceAndEnds() {
        var alice = newUser();
        var orderId = createOrderId(alice);
        decideInDatabase(orderId, "REJECTED");

        var response = api.send(
                "GET", eventsOf(orderId), null, "", "Accept", "text/event-stream", AUTHORIZATION, bearer(alice));

        assertThat(response.status()).as(response::toString).isEqualTo(200);
        var events = events(response.body().lines().toList());
        assertThat(events).extracting(Event::name).containsExactly("order", "decided");
        assertThat(events.get(1).data().get("status").asString()).isEqualTo("REJECTED");
        assertThat(events.get(1).data().get("rejectReason").asString()).isEqualTo("INSUFFICIENT_STOCK");
    }

    @Test
    void answersAnotherUserAsIfTheOrderDidNotExist() {
        var orderId = createOrderId(newUser());

        var response = api.send(
                "GET", eventsOf(orderId), null, "", "Accept", "text/event-stream", AUTHORIZATION, bearer(newUser()));

        assertThat(response.status()).as(response::toString).isEqualTo(404);
        assertThat(response.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:order-not-found");
    }

    @Test
    void refusesAStreamBeyondTheBoundWithOverloadedAndRetryAfter() throws Exception {
        var alice = newUser();
        var orders = new ArrayList<UUID>();
        var open = new ArrayList<HttpResponse<Stream<String>>>();
        for (var i = 0; i < 3; i++) {
            var orderId = createOrderId(alice);
            orders.add(orderId);
            open.add(open(orderId, alice));
        }
        assertThat(open).allSatisfy(stream -> assertThat(stream.statusCode()).isEqualTo(200));

        var refused = api.send(
                "GET",
                eventsOf(createOrderId(alice)),
                null,
                "",
                "Accept",
                "text/event-stream",
                AUTHORIZATION,
                bearer(alice));

        assertThat(refused.status()).as(refused::toString).isEqualTo(503);
        assertThat(refused.json().get("type").asString()).isEqualTo("urn:order-pipeline:problem:overloaded");
        assertThat(refused.header("Retry-After")).isPresent();
        // deciding the orders ends their streams and frees their places
        for (var orderId : orders) {
            worker.decide(orderId, CheckoutOutcome.REJECTED, RejectReason.INSUFFICIENT_STOCK);
        }
        for (var stream : open) {
            assertThat(events(stream.body().toList())).extracting(Event::name).containsExactly("order", "decided");
        }
    }

    @Test
    void beatsWhileTheOrderWaitsAndTheDecisionStillComes() throws Exception {
        var alice = newUser();
        var orderId = createOrderId(alice);
        var stream = open(orderId, alice);
        var lines = new CopyOnWriteArrayList<String>();
        var read = CompletableFuture.runAsync(() -> stream.body().forEach(lines::add));

        await().atMost(Duration.ofSeconds(5))
                .until(() -> lines.stream().filter(":heartbeat"::equals).count() >= 2);
        worker.decide(orderId, CheckoutOutcome.REJECTED, RejectReason.INSUFFICIENT_STOCK);
        read.get(10, TimeUnit.SECONDS);

        assertThat(events(lines)).extracting(Event::name).containsExactly("order", "decided");
    }

    @Test
    void aClientThatWentAwayGivesItsPlaceBackAtAHeartbeat() throws Exception {
        var alice = newUser();
        var orderId = createOrderId(alice);
        try (var socket = new Socket("127.0.0.1", port())) {
            socket.setSoTimeout(10_000);
            var request = "GET " + eventsOf(orderId) + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                    + AUTHORIZATION + ": " + bearer(alice) + "\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            var head = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            assertThat(head.readLine()).startsWith("HTTP/1.1 200");
            await().atMost(Duration.ofSeconds(5)).until(() -> streams.open() == 1);
        }
        // the client is gone without a word: the order stays undecided, so only a failing heartbeat ends the stream,
        // well before max-lifetime (1 min)
        await().atMost(Duration.ofSeconds(10)).until(() -> streams.open() == 0);
    }

    /** Opens the stream and answers once its headers are in: by then the stream waits for the decision. */
    private HttpResponse<Stream<String>> open(UUID orderId, String userId) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + eventsOf(orderId)))
                        .timeout(Duration.ofSeconds(30))
                        .header("Accept", "text/event-stream")
                        .header(AUTHORIZATION, bearer(userId))
                        .build(),
                HttpResponse.BodyHandlers.ofLines());
    }

    private static String eventsOf(UUID orderId) {
        return "/api/orders/" + orderId + "/events";
    }

    /** One server-sent event: its name, retry field and JSON data. */
    private record Event(String name, String retry, JsonNode data) {}

    /** The events of a stream's lines; each ends with an empty line. */
    private static List<Event> events(List<String> lines) {
        var events = new ArrayList<Event>();
        String name = "";
        String retry = "";
        var data = new StringBuilder();
        for (var line : lines) {
            if (line.isEmpty()) {
                if (!data.isEmpty()) {
                    events.add(new Event(name, retry, JSON.readTree(data.toString())));
                }
                name = "";
                retry = "";
                data.setLength(0);
            } else if (line.startsWith("event:")) {
                name = line.substring("event:".length());
            } else if (line.startsWith("retry:")) {
                retry = line.substring("retry:".length());
            } else if (line.startsWith("data:")) {
                data.append(line.substring("data:".length()));
            }
        }
        return events;
    }
}
