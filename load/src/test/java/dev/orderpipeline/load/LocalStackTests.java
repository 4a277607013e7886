package dev.orderpipeline.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.infra.DevelopmentTokens;
import dev.orderpipeline.infra.FreePorts;
import dev.orderpipeline.infra.LocalStack;
import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.infra.StackConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The launcher end to end: PostgreSQL, a broker from the Kafka jars, and the packaged order-api and checkout-worker
 * as processes of their own; one checkout goes through all of them over HTTP, with the bearer tokens {@code bin/lab
 * token} would mint for the development key the launcher hands the API.
 */
class LocalStackTests {

    /** The repository root: failsafe runs in the module directory. */
    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final DevelopmentTokens TOKENS = new DevelopmentTokens(DevelopmentTokens.configuredKey());
    private static final String ALICE = "Bearer " + TOKENS.user("alice");

    @TempDir
    Path workDirectory;

    @Test
    void completesACheckoutThroughEveryProcessAndLeavesNoneBehind() throws Exception {
        var postgres = Postgres.forTests();
        var ports = FreePorts.several(4);
        var config = StackConfig.defaults(PROJECT)
                .withWorkDirectory(workDirectory)
                .withDatabase(new StackConfig.Database.Existing(
                        postgres.createDatabase("stack"), postgres.user(), postgres.password()))
                .withBroker(new StackConfig.Broker.FromJars(ports.get(0), ports.get(1)))
                .withApps(ports.get(2), 1, ports.get(3));

        List<ProcessHandle> processes;
        try (var stack = LocalStack.start(config)) {
            assertThat(stack.liveProcesses()).as("API, worker and broker").hasSize(3);
            // with their own children: other end-to-end classes run beside this one, so the test JVM's other
            // descendants are theirs
            processes = stack.liveProcesses().stream()
                    .flatMap(process -> Stream.concat(Stream.of(process), process.descendants()))
                    .toList();
            var api = stack.api().baseUrl();

            var anonymous = send("POST", api + "/api/products", Map.of(), """
                    {"name": "Limited sneaker", "stock": 5, "price": 129.90}""");
            assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
            var product =
                    send("POST", api + "/api/products", Map.of("Authorization", "Bearer " + TOKENS.admin("ops")), """
                    {"name": "Limited sneaker", "stock": 5, "price": 129.90}""");
            assertThat(product.statusCode()).as(product.body()).isEqualTo(201);
            var productId = json(product).path("id").asString();

            var order = send("POST", api + "/api/orders", Map.of("Authorization", ALICE), """
                    {"productId": "%s", "quantity": 1}""".formatted(productId));
            assertThat(order.statusCode()).as(order.body()).isEqualTo(201);
            var orderId = json(order).path("id").asString();

            var checkout = send(
                    "POST",
                    api + "/api/orders/" + orderId + "/checkout",
                    Map.of("Authorization", ALICE, "Prefer", "wait=10"),
                    "");
            assertThat(checkout.statusCode()).as(checkout.body()).isIn(200, 202);
            if (checkout.statusCode() == 200) {
                assertThat(json(checkout).path("status").asString()).isEqualTo("COMPLETED");
            } else {
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200))
                        .untilAsserted(
                                () -> assertThat(orderStatus(api, orderId)).isEqualTo("COMPLETED"));
            }
            assertThat(orderStatus(api, orderId)).isEqualTo("COMPLETED");
        }

        assertThat(processes.stream().filter(ProcessHandle::isAlive))
                .as("processes of the stack left alive")
                .isEmpty();
    }

    private static String orderStatus(String api, String orderId) throws Exception {
        var response = send("GET", api + "/api/orders/" + orderId, Map.of("Authorization", ALICE), null);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response).path("status").asString();
    }

    private static HttpResponse<String> send(String method, String url, Map<String, String> headers, String body)
            throws Exception {
        var request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(20))
                .header("Accept", "application/json");
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }
}
