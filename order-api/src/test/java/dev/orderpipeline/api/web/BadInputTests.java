package dev.orderpipeline.api.web;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.api.RawHttp;
import dev.orderpipeline.api.TestTokens;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Input that is too big, too deep, out of range or not HTTP the API expects: each is answered with a problem below
 * 500 and changes nothing. Several of these were 500s, empty answers or writes followed by an error before
 * {@link HostileInputTests} found them.
 */
class BadInputTests extends ApiTestSupport {

    private static final String VALID_PRODUCT = "{\"name\": \"Hot\", \"stock\": 1, \"price\": 1}";

    @LocalServerPort
    private int port;

    private RawHttp http;
    private long products;
    private long orders;
    private long payments;

    @BeforeEach
    void rememberRowCounts() {
        http = new RawHttp(port, 10_000);
        products = count("product");
        orders = count("orders");
        payments = count("payment");
    }

    @Test
    void refusesABodyDeclaredLargerThanTheLimitWithoutReadingIt() {
        var started = System.nanoTime();
        // ten megabytes announced, a dozen bytes sent: an answer that waited for the body would never come
        var response = http.send(new RawHttp.Request(
                "POST",
                "/api/products",
                RawHttp.headers("Content-Type", "application/json", AUTHORIZATION, TestTokens.adminBearer()),
                "{\"name\": \"x".getBytes(StandardCharsets.UTF_8),
                new RawHttp.Declared(10L << 20)));

        var problem = problem(response, 413, "payload-too-large");
        assertThat(problem.get("maxBytes").asLong()).isEqualTo(16_384);
        assertThat(problem.get("detail").asString()).contains("10485760 bytes");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertNothingWritten();
    }

    @Test
    void refusesAChunkedBodyAsSoonAsItGrowsPastTheLimit() {
        var body = "{\"name\": \"" + "x".repeat(40_000) + "\", \"stock\": 1, \"price\": 1}";

        var response = http.send(new RawHttp.Request(
                "POST",
                "/api/products",
                RawHttp.headers("Content-Type", "application/json", AUTHORIZATION, TestTokens.adminBearer()),
                body.getBytes(StandardCharsets.UTF_8),
                new RawHttp.Chunked(1_000)));

        problem(response, 413, "payload-too-large");
        assertNothingWritten();
    }

    @Test
    void refusesABodyOverTheLimitOnAnEndpointThatReadsNone() {
        var alice = newUser();
        var orderId = createOrderId(alice);
        rememberRowCounts();

        var response = http.send(new RawHttp.Request(
                "POST",
                "/api/orders/" + orderId + "/checkout",
                RawHttp.headers(AUTHORIZATION, bearer(alice), "Content-Type", "application/json"),
                " ".repeat(20_000).getBytes(StandardCharsets.UTF_8),
                new RawHttp.Exact()));

        problem(response, 413, "payload-too-large");
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
        assertNothingWritten();
    }

    @Test
    void readsABodyJustUnderTheLimit() {
        var padded = "{\"name\": \"Padded\"," + " ".repeat(16_000) + "\"stock\": 1, \"price\": 1}";

        var response = api.post("/api/products", padded);

        assertThat(response.status()).as(response::toString).isEqualTo(201);
    }

    @Test
    void refusesJsonNestedDeeperThanTheLimit() {
        var deep = "{\"name\": \"a\", \"stock\": 1, \"price\": 1, \"extra\": " + "[".repeat(40) + "]".repeat(40) + "}";
        var shallow =
                "{\"name\": \"a\", \"stock\": 1, \"price\": 1, \"extra\": " + "[".repeat(20) + "]".repeat(20) + "}";

        var response = api.post("/api/products", deep);

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        var problem = response.json();
        assertThat(problem.get("type").asString())
                .isEqualTo(ProblemKind.MALFORMED_REQUEST.type().toString());
        assertThat(problem.get("detail").asString()).contains("nesting depth");
        assertNothingWritten();
        // unknown members are ignored, however they are nested, as long as they are within the limit
        assertThat(api.post("/api/products", shallow).status()).isEqualTo(201);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "stock    | 1e400                   | malformed-request",
                "stock    | 99999999999999999999    | malformed-request",
                "stock    | -1e400                  | malformed-request",
                "price    | 1e400                   | validation-failed",
                "price    | 1e-400                  | validation-failed",
                "price    | 1e999999999             | validation-failed",
                "price    | 10000000000             | validation-failed",
            })
    void refusesANumberTooLargeForItsField(String field, String number, String kind) {
        var body = VALID_PRODUCT.replace("\"" + field + "\": 1", "\"" + field + "\": " + number);

        var response = api.post("/api/products", body);

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        assertThat(response.json().get("type").asString()).isEqualTo(ProblemKind.TYPE_PREFIX + kind);
        assertThat(response.json().toString()).contains(field);
        assertNothingWritten();
    }

    @Test
    void refusesANumberLongerThanTheParserReads() {
        var response =
                api.post("/api/products", VALID_PRODUCT.replace("\"price\": 1", "\"price\": 1" + "0".repeat(200)));

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        assertThat(response.json().get("type").asString())
                .isEqualTo(ProblemKind.MALFORMED_REQUEST.type().toString());
        assertNothingWritten();
    }

    @Test
    void refusesAQuantityTooLargeForAnInt() {
        var response = api.post(
                "/api/orders",
                "{\"productId\": \"" + UUID.randomUUID() + "\", \"quantity\": 99999999999999999999}",
                AUTHORIZATION,
                bearer(newUser()));

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        assertThat(response.json().get("field").asString()).isEqualTo("quantity");
        assertNothingWritten();
    }

    @Test
    void refusesATokenWhoseSubjectIsLongerThanAUserId() {
        var response = api.post(
                "/api/orders",
                "{\"productId\": \"" + UUID.randomUUID() + "\", \"quantity\": 1}",
                AUTHORIZATION,
                bearer("u".repeat(Caller.MAX_USER_ID_LENGTH + 1)));

        assertThat(response.status()).as(response::toString).isEqualTo(401);
        assertThat(response.json().get("type").asString())
                .isEqualTo(ProblemKind.INVALID_TOKEN.type().toString());
        assertNothingWritten();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"a\\u0000b", "\\u0007bell", "tab\\tinside", "\\u009b", "lone \\ud800 surrogate"})
    void refusesANameWithControlCharactersOrBrokenText(String escapedName) {
        // PostgreSQL cannot store NUL in text: this was a 500
        var response = api.post("/api/products", "{\"name\": \"" + escapedName + "\", \"stock\": 1, \"price\": 1}");

        assertThat(response.status()).as(response::toString).isEqualTo(400);
        var problem = response.json();
        assertThat(problem.get("type").asString())
                .isEqualTo(ProblemKind.VALIDATION_FAILED.type().toString());
        assertThat(problem.get("errors").values())
                .anySatisfy(error -> assertThat(error.get("field").asString()).isEqualTo("name"));
        assertNothingWritten();
    }

    @Test
    void acceptsANameInAnyScript() {
        var response = api.post("/api/products", "{\"name\": \"Schuhe 名前 😀\", \"stock\": 1, \"price\": 1}");

        assertThat(response.status()).as(response::toString).isEqualTo(201);
        assertThat(response.json().get("name").asString()).isEqualTo("Schuhe 名前 😀");
    }

    @Test
    void refusesAnOrderWhosePaymentCouldNotBeRecorded() {
        // numeric(12,2) price times quantity must fit payment.amount, numeric(14,2): else every checkout would fail
        var productId = createProduct(1_000_000, "9999999999.99");
        var alice = newUser();
        rememberRowCounts();

        var tooMuch = api.post(
                "/api/orders",
                "{\"productId\": \"" + productId + "\", \"quantity\": 101}",
                AUTHORIZATION,
                bearer(alice));

        assertThat(tooMuch.status()).as(tooMuch::toString).isEqualTo(400);
        var problem = tooMuch.json();
        assertThat(problem.get("type").asString())
                .isEqualTo(ProblemKind.VALIDATION_FAILED.type().toString());
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("quantity");
        assertNothingWritten();

        var atTheLimit = createOrder(alice, productId, 100);
        // what the worker will charge for it fits the payment's column: casting to its type would overflow (22003)
        assertThat(jdbc.sql("""
                                SELECT CAST(p.price * o.quantity AS numeric(14, 2))
                                  FROM orders o JOIN product p ON p.id = o.product_id
                                 WHERE o.id = :id
                                """)
                        .param("id", UUID.fromString(atTheLimit.get("id").asString()))
                        .query(BigDecimal.class)
                        .single())
                .isEqualByComparingTo("999999999999.00");
        var checkout = api.post(
                "/api/orders/" + atTheLimit.get("id").asString() + "/checkout", null, AUTHORIZATION, bearer(alice));
        assertThat(checkout.status()).as(checkout::toString).isEqualTo(202);
    }

    @Test
    void refusesWhatTheClientCannotAcceptBeforeWritingAnything() {
        // these wrote the product, the order or the payment, then answered 406
        problem(
                send(
                        "POST",
                        "/api/products",
                        VALID_PRODUCT,
                        "Content-Type",
                        "application/json",
                        "Accept",
                        "application/xml"),
                406,
                "not-acceptable");
        var alice = newUser();
        var orderId = createOrderId(alice);
        rememberRowCounts();
        problem(
                send(
                        "POST",
                        "/api/orders/" + orderId + "/checkout",
                        "",
                        "Authorization",
                        bearer(alice),
                        "Accept",
                        "text/html"),
                406,
                "not-acceptable");

        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
        assertNothingWritten();
    }

    @ParameterizedTest(name = "Accept: {0}")
    @ValueSource(strings = {"garbage", "application/json;q=abc", "text/html"})
    void answersAProblemWhateverTheAcceptHeaderSays(String accept) {
        // an Accept that could not be parsed left error answers without a body
        var response = send(
                "GET", "/api/orders/" + UUID.randomUUID(), null, AUTHORIZATION, bearer(newUser()), "Accept", accept);

        assertThat(response.status()).isBetween(400, 499);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.jsonOrNull()).isNotNull();
    }

    @ParameterizedTest(name = "Content-Type: {0}")
    @ValueSource(strings = {"*/*", "application/*", "multipart/form-data", "multipart/form-data; boundary=x"})
    void refusesABodyOfNoConcreteOrSupportedMediaType(String contentType) {
        // each of these was a 500
        var response = send("POST", "/api/products", VALID_PRODUCT, "Content-Type", contentType);

        problem(response, 415, "unsupported-media-type");
        assertNothingWritten();
    }

    @ParameterizedTest(name = "?{0}")
    @ValueSource(strings = {"%7F=x", "%0A=x", "%1F=%00"})
    void refusesAQueryParameterTheFirewallRefusesWithoutChangingAnything(String query) {
        // the checkout reads every parameter (to refuse the lab's), which the firewall checks only then: was a 500
        var alice = newUser();
        var orderId = createOrderId(alice);
        rememberRowCounts();

        var response =
                send("POST", "/api/orders/" + orderId + "/checkout?" + query, "", "Authorization", bearer(alice));

        problem(response, 400, "malformed-request");
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
        assertNothingWritten();
    }

    @Test
    void refusesAQueryStringTheServerCannotParse() {
        // a parameter without a name: the server's parser gave up inside the handler, which made it a 500
        var alice = newUser();
        var orderId = createOrderId(alice);
        rememberRowCounts();

        var response = send("POST", "/api/orders/" + orderId + "/checkout?=%1F", "", "Authorization", bearer(alice));

        problem(response, 400, "malformed-request");
        assertThat(statusInDatabase(orderId)).isEqualTo("CREATED");
        assertNothingWritten();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "/api/orders/a%2Fb",
                "/api/orders/%00",
                "/api/orders/a%5Cb",
                "/api/../../etc/passwd",
                "/api/orders/%2e%2e/%2e%2e/%2e%2e/x"
            })
    void answersAPathTheServerRefusesAsAProblem(String target) {
        // the server refuses these before any application code runs; it answered with its own HTML page
        var response = send("GET", target, null, AUTHORIZATION, bearer(newUser()));

        problem(response, 400, "malformed-request");
    }

    /** Sends as an administrator unless the headers name a caller. */
    private RawHttp.Response send(String method, String target, String body, String... headers) {
        var bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        var all = new ArrayList<>(List.of(headers));
        if (!all.contains(AUTHORIZATION)) {
            all.addAll(List.of(AUTHORIZATION, TestTokens.adminBearer()));
        }
        return http.send(new RawHttp.Request(
                method, target, RawHttp.headers(all.toArray(String[]::new)), bytes, new RawHttp.Exact()));
    }

    private static JsonNode problem(RawHttp.Response response, int status, String kind) {
        assertThat(response.status()).as(response::toString).isEqualTo(status);
        assertThat(response.contentType()).as(response::toString).startsWith("application/problem+json");
        var problem = response.jsonOrNull();
        assertThat(problem).as(response::toString).isNotNull();
        assertThat(problem.get("type").asString()).isEqualTo(ProblemKind.TYPE_PREFIX + kind);
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("title").asString()).isNotBlank();
        return problem;
    }

    private void assertNothingWritten() {
        assertThat(List.of(count("product"), count("orders"), count("payment")))
                .as("rows of product, orders, payment")
                .isEqualTo(List.of(products, orders, payments));
    }
}
