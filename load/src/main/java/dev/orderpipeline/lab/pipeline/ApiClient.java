package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.infra.DevelopmentTokens;
import dev.orderpipeline.lab.measure.StatusCounts;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.SequencedMap;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The order-api endpoints the lab uses, on one replica, with bearer tokens the lab mints itself: an administrator's
 * for creating products, and one per buyer (the user id as subject) for orders and
 * checkouts, as real clients would hold.
 */
public final class ApiClient {

    /** The problem type order-api's lab answers when it does not know a strategy name. */
    static final String UNKNOWN_STRATEGY = "urn:order-pipeline:problem:unknown-strategy";

    /** The problem type of a production checkout that was given a lab parameter: the lab is off there. */
    static final String LAB_OFF = "urn:order-pipeline:problem:lab-off";

    /** The problem type of a checkout refused at the door: the product is known sold out, the order stays CREATED. */
    public static final String SOLD_OUT = "urn:order-pipeline:problem:sold-out";

    /** The problem type of a checkout the broker did not confirm in time: the server may still decide its order. */
    static final String OUTCOME_UNKNOWN = "urn:order-pipeline:problem:checkout-outcome-unknown";

    /** The subject of the lab's administrator token. */
    static final String ADMIN = "lab-admin";

    /** How long the lab's clients wait for a connection, the kernel's SYN retries at 1 and 3 s included. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String baseUrl;
    private final URI metricsUrl;
    private final HttpClient http;
    private final Duration requestTimeout;
    private final DevelopmentTokens tokens = new DevelopmentTokens(DevelopmentTokens.configuredKey());

    /** A replica the lab started, with the development key the lab's stacks hand their API processes. */
    public ApiClient(AppProcess api, HttpClient http, Duration requestTimeout) {
        this.baseUrl = api.baseUrl();
        this.metricsUrl = api.metricsUrl();
        this.http = http;
        this.requestTimeout = requestTimeout;
    }

    /** A client for the lab: HTTP/1.1 as the apps speak it, its callbacks on virtual threads. */
    public static HttpClient newHttpClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .executor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor())
                .build();
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** The {@code Authorization} header of {@code userId}, a buyer without roles. */
    private String userAuthorization(String userId) {
        return "Bearer " + tokens.user(userId);
    }

    public UUID createProduct(String name, int stock, BigDecimal price) {
        var body = Map.of("name", name, "stock", stock, "price", price);
        return create("/api/products", "Bearer " + tokens.admin(ADMIN), body, "creating a product");
    }

    /** Adds {@code units} to the product's stock, as an administrator restocks it; returns the stock after. */
    public int restock(UUID productId, int units) {
        var response = send(post(
                "/api/products/" + productId + "/restock",
                "Bearer " + tokens.admin(ADMIN),
                JSON.writeValueAsString(Map.of("units", units))));
        return parse(expect(response, 200, "restocking a product").body())
                .path("stock")
                .asInt();
    }

    public UUID createOrder(String userId, UUID productId, int quantity) {
        var body = Map.of("productId", productId.toString(), "quantity", quantity);
        return create("/api/orders", userAuthorization(userId), body, "creating an order");
    }

    /**
     * Creates a cart of {@code userId}, one line per product in the map's order, and returns the order's id.
     *
     * @param lines product to units, in line order
     */
    public UUID createCart(String userId, SequencedMap<UUID, Integer> lines) {
        var body = Map.of(
                "lines",
                lines.entrySet().stream()
                        .map(line -> Map.of("productId", line.getKey().toString(), "quantity", line.getValue()))
                        .toList());
        return create("/api/orders", userAuthorization(userId), body, "creating a cart");
    }

    /**
     * One checkout. Never throws for what the server or the network does: the answer is a {@link #status}, or
     * {@link StatusCounts#TIMEOUT} / {@link StatusCounts#IO_ERROR}.
     */
    public String checkout(UUID orderId, String userId, String strategy, @Nullable Integer delayMillis) {
        return answerCheckout(orderId, userId, strategy, delayMillis).status();
    }

    /**
     * A checkout's answer: its {@link #status}, its HTTP code (0 when none came), and its Retry-After in seconds; RFC
     * 9110 allows seconds or an HTTP date, the API sends seconds, and a date counts as absent.
     */
    public record CheckoutAnswer(
            int code, String status, @Nullable Integer retryAfterSeconds) {}

    /** The same checkout as {@link #checkout}, with what a client that retries needs of its answer. */
    public CheckoutAnswer answerCheckout(UUID orderId, String userId, String strategy, @Nullable Integer delayMillis) {
        var path = checkoutPath(orderId, strategy, delayMillis);
        try {
            var response = http.send(
                    post(path, userAuthorization(userId), null),
                    info -> info.statusCode() == 409 || info.statusCode() == 503
                            ? HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8)
                            : HttpResponse.BodySubscribers.replacing(""));
            var retryAfter =
                    response.headers().firstValue("Retry-After").orElse("").strip();
            return new CheckoutAnswer(
                    response.statusCode(),
                    status(response.statusCode(), response.body()),
                    retryAfter.matches("\\d{1,6}") ? Integer.valueOf(retryAfter) : null);
        } catch (HttpTimeoutException ex) {
            return new CheckoutAnswer(0, StatusCounts.TIMEOUT, null);
        } catch (IOException ex) {
            return new CheckoutAnswer(0, StatusCounts.IO_ERROR, null);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return new CheckoutAnswer(0, StatusCounts.IO_ERROR, null);
        }
    }

    /**
     * A checkout's answer from its status code and, for a 409 or a 503, its problem type: {@link StatusCounts#SOLD_OUT}
     * and {@link StatusCounts#OUTCOME_UNKNOWN} leave the order in different hands than the other answers of their code.
     */
    static String status(int code, String body) {
        if (code == 409 && body.contains(SOLD_OUT)) {
            return StatusCounts.SOLD_OUT;
        }
        return code == 503 && body.contains(OUTCOME_UNKNOWN) ? StatusCounts.OUTCOME_UNKNOWN : Integer.toString(code);
    }

    /**
     * The same checkout as {@link #checkout}, made ready to be sent later on a connection of its own: its token is
     * signed now, not while the burst runs.
     */
    public PreparedCheckout prepareCheckout(
            UUID orderId, String userId, String strategy, @Nullable Integer delayMillis) {
        return PreparedCheckout.post(
                baseUrl,
                checkoutPath(orderId, strategy, delayMillis),
                userAuthorization(userId),
                CONNECT_TIMEOUT,
                requestTimeout);
    }

    /**
     * Whether the API knows a strategy, asked without side effects: a checkout of an order that does not exist
     * answers 404 when the name is known, 400 unknown-strategy when the lab does not know it (the name is resolved
     * first), and 400 lab-off when the API runs without the lab. The pipeline's checkout is always there.
     */
    public boolean supportsStrategy(String strategy) {
        if (Strategies.isAsynchronous(strategy)) {
            return true;
        }
        var response =
                send(post(checkoutPath(UUID.randomUUID(), strategy, null), userAuthorization("lab-probe"), null));
        if (response.statusCode() == 400) {
            var type = parse(response.body()).path("type").asString("");
            return !UNKNOWN_STRATEGY.equals(type) && !LAB_OFF.equals(type);
        }
        return true;
    }

    /** The replica's meters in Prometheus' text format, from its management port. */
    public String metrics() {
        var request =
                HttpRequest.newBuilder(metricsUrl).timeout(requestTimeout).GET().build();
        return expect(send(request), 200, "reading the metrics").body();
    }

    /** The production checkout for the pipeline; the lab's, which names its strategy, for the others. */
    private static String checkoutPath(UUID orderId, String strategy, @Nullable Integer delayMillis) {
        var path = "/api/orders/" + orderId + "/checkout";
        if (Strategies.isAsynchronous(strategy)) {
            return path;
        }
        path += "?strategy=" + URLEncoder.encode(strategy, StandardCharsets.UTF_8);
        return delayMillis == null ? path : path + "&delayMs=" + delayMillis;
    }

    private HttpRequest post(String path, String authorization, @Nullable String json) {
        var request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(requestTimeout)
                .header("Authorization", authorization)
                .header("Accept", "application/json");
        if (json == null) {
            request.POST(HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        }
        return request.build();
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException ex) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + ex, ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + request.method() + " " + request.uri(), ex);
        }
    }

    private static HttpResponse<String> expect(HttpResponse<String> response, int status, String what) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(what + " answered " + response.statusCode() + " instead of " + status + " ("
                    + response.request().uri() + "): " + response.body());
        }
        return response;
    }

    /** POSTs {@code body} as JSON, expects 201 Created and returns the new resource's id. */
    private UUID create(String path, String authorization, Object body, String what) {
        var response = send(post(path, authorization, JSON.writeValueAsString(body)));
        return UUID.fromString(
                parse(expect(response, 201, what).body()).path("id").asString());
    }

    private static JsonNode parse(String body) {
        return JSON.readTree(body.isBlank() ? "{}" : body);
    }
}
