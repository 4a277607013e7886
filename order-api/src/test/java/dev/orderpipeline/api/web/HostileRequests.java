package dev.orderpipeline.api.web;

import static dev.orderpipeline.api.RawHttp.encode;
import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;

import dev.orderpipeline.api.RawHttp;
import dev.orderpipeline.api.RawHttp.Header;
import dev.orderpipeline.api.TestTokens;
import dev.orderpipeline.infra.DevelopmentTokens;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Random and hostile requests against the endpoints that take input, drawn from one seeded {@link Random} so that a
 * failing case can be replayed. Each request is hostile somewhere (a body, a parameter, a header, a path segment, its
 * bearer token) and plausible elsewhere, so that it gets past the first check and reaches the next one; now and then a request comes
 * out valid, which the test allows.
 *
 * <p>What never reaches the application is left out: bytes that are not HTTP (control characters in a header, a raw
 * space in the target), which the server's HTTP parser refuses before any code of ours runs.
 */
final class HostileRequests {

    /** Which endpoint a request targets, for grouping findings. */
    enum Endpoint {
        CREATE_PRODUCT,
        CREATE_ORDER,
        GET_ORDER,
        CHECKOUT
    }

    /** A generated request and what it aims at. */
    record Case(int number, Endpoint endpoint, RawHttp.Request request, boolean targetsFixtureOrder) {}

    /** What exists for the requests to point at. */
    interface Fixtures {
        UUID productId();

        UUID orderId();

        String ownerId();
    }

    static final List<String> STRINGS = List.of(
            "",
            " ",
            "\t",
            "\n",
            "\u2003",
            "\u00a0",
            "\u3000",
            "\u200b",
            "\ufeff",
            "a\u0000b",
            "\u0000",
            "\u0001",
            "\u001c",
            "\u001f",
            "\u007f",
            "\u0085",
            "\u2028",
            "\ud800",
            "x\udc00",
            "\ud83d\ude00",
            "名前",
            "Ünïcödé",
            "\u202eevil",
            "' OR '1'='1",
            "'; DROP TABLE product; --",
            "\") OR 1=1 --",
            "1; SELECT pg_sleep(10)",
            "<script>alert(1)</script>",
            "javascript:alert(1)",
            "${jndi:ldap://example.invalid/a}",
            "#{7*7}",
            "{{7*7}}",
            "%s%n%x",
            "../../etc/passwd",
            "\\",
            "\"",
            "null",
            "NaN",
            "x".repeat(200),
            "x".repeat(201),
            "é".repeat(200),
            "😀".repeat(101),
            "x".repeat(4000));

    static final List<String> NUMBERS = List.of(
            "0",
            "-0",
            "1",
            "-1",
            "2147483647",
            "2147483648",
            "-2147483648",
            "-2147483649",
            "99999999999999999999",
            "1e400",
            "-1e400",
            "1e-400",
            "1e999999999",
            "-1e999999999",
            "1E2",
            "1.5",
            "1.0",
            "0.001",
            "9999999999.99",
            "10000000000",
            "1" + "0".repeat(500),
            "9".repeat(1200),
            "0." + "0".repeat(400) + "1",
            "NaN",
            "Infinity",
            "-Infinity",
            "0x10",
            "01",
            "+1",
            ".5",
            "5.",
            "1e",
            "--1",
            "1_000");

    private static final List<String> CONTENT_TYPES = List.of(
            "application/json; charset=UTF-16",
            "application/json;charset=nonsense",
            "application/json; charset=\"",
            "application/json; charset=ISO-8859-1",
            "application/json; q=abc",
            "application/problem+json",
            "application/merge-patch+json",
            "text/plain",
            "text/json",
            "application/xml",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "multipart/form-data; boundary=xyz",
            "*/*",
            "application/*",
            "",
            "garbage",
            ";;;",
            "application/json, text/plain");

    private static final List<String> ACCEPTS = List.of(
            "*/*",
            "application/json",
            "application/problem+json",
            "text/html",
            "application/xml",
            "text/plain",
            "garbage",
            "application/json;q=abc",
            "image/png, */*;q=0");

    private static final List<String> STRATEGIES = List.of(
            "",
            " ",
            "KAFKA",
            "unknown",
            "naive ",
            "naïve",
            "db_atomic",
            "for update",
            "optimistic;",
            "*",
            "%",
            "null",
            "kafka,naive",
            "' OR '1'='1",
            "x".repeat(300));

    private static final List<String> KNOBS = List.of(
            "",
            " ",
            "-1",
            "-2147483648",
            "10001",
            "2147483647",
            "2147483648",
            "99999999999999999999",
            "1e3",
            "1.5",
            "0x10",
            "abc",
            "NaN",
            "٣",
            "1 ",
            "+1",
            "0");

    private static final List<String> PREFERS = List.of(
            "wait",
            "wait=",
            "wait=abc",
            "wait=-1",
            "wait=0",
            "wait=1.5",
            "wait==2",
            "wait=\"\"",
            "wait=\"x\"",
            ";wait=1",
            ",,,",
            "respond-async",
            "return=minimal, wait=abc",
            "wait=0x10",
            "w".repeat(2000));

    private final Random random;
    private final Fixtures fixtures;
    private int count;

    HostileRequests(Random random, Fixtures fixtures) {
        this.random = random;
        this.fixtures = fixtures;
    }

    Case next() {
        var number = ++count;
        return switch (Endpoint.values()[random.nextInt(Endpoint.values().length)]) {
            case CREATE_PRODUCT -> createProduct(number);
            case CREATE_ORDER -> createOrder(number);
            case GET_ORDER -> getOrder(number);
            case CHECKOUT -> checkout(number);
        };
    }

    private Case createProduct(int number) {
        var fields = new ArrayList<String>();
        field(fields, "name", () -> jsonString("Fuzzed product"), this::text);
        field(fields, "stock", () -> "5", this::number);
        field(fields, "price", () -> "1.50", this::number);
        var headers = new ArrayList<Header>();
        authorization(headers, true);
        var body = body(fields, headers);
        accept(headers);
        return new Case(
                number,
                Endpoint.CREATE_PRODUCT,
                new RawHttp.Request("POST", "/api/products", headers, body, framing(body)),
                false);
    }

    private Case createOrder(int number) {
        var fields = new ArrayList<String>();
        field(fields, "productId", () -> jsonString(fixtures.productId().toString()), () -> jsonString(hostileId()));
        field(fields, "quantity", () -> "1", this::number);
        var headers = new ArrayList<Header>();
        authorization(headers, false);
        var body = body(fields, headers);
        accept(headers);
        return new Case(
                number,
                Endpoint.CREATE_ORDER,
                new RawHttp.Request("POST", "/api/orders", headers, body, framing(body)),
                false);
    }

    private Case getOrder(int number) {
        var fixture = random.nextBoolean();
        var id = fixture ? fixtures.orderId().toString() : hostileId();
        var headers = new ArrayList<Header>();
        authorization(headers, false);
        accept(headers);
        var body = random.nextInt(8) == 0 ? hostileBody(headers) : new byte[0];
        return new Case(
                number,
                Endpoint.GET_ORDER,
                new RawHttp.Request("GET", "/api/orders/" + encode(id), headers, body, framing(body)),
                fixture);
    }

    private Case checkout(int number) {
        var fixture = random.nextInt(3) != 0;
        var id = fixture ? fixtures.orderId().toString() : hostileId();
        var query = new ArrayList<String>();
        if (random.nextBoolean()) {
            query.add("strategy=" + encode(pick(STRATEGIES)));
        } else if (random.nextBoolean()) {
            // a name the lab knows, or the pipeline's old one: with the lab off, refused like any other
            query.add("strategy=" + pick(List.of("kafka", "db-atomic", "optimistic", "serializable", "for-update")));
        }
        // the lab's knobs: the production checkout refuses them, well-formed or not
        if (random.nextInt(3) == 0) {
            query.add("delayMs=" + encode(pick(KNOBS)));
        }
        if (random.nextInt(3) == 0) {
            query.add("maxAttempts=" + encode(pick(KNOBS)));
        }
        if (random.nextInt(6) == 0) {
            query.add(encode(pick(STRINGS)) + "=" + encode(pick(STRINGS)));
        }
        var headers = new ArrayList<Header>();
        authorization(headers, false);
        if (random.nextBoolean()) {
            headers.add(header("Prefer", pick(PREFERS)));
        }
        accept(headers);
        byte[] body = new byte[0];
        if (random.nextInt(5) == 0) {
            body = hostileBody(headers);
        }
        var target = "/api/orders/" + encode(id) + "/checkout" + (query.isEmpty() ? "" : "?" + String.join("&", query));
        return new Case(
                number, Endpoint.CHECKOUT, new RawHttp.Request("POST", target, headers, body, framing(body)), fixture);
    }

    /** A JSON object of {@code fields}, or, one time in three, something else entirely; sets the content type. */
    private byte[] body(List<String> fields, List<Header> headers) {
        if (random.nextInt(3) == 0) {
            return hostileBody(headers);
        }
        contentType(headers);
        if (random.nextInt(8) == 0) {
            fields.add(jsonString(pick(STRINGS)) + ": " + value());
        }
        if (random.nextInt(10) == 0 && !fields.isEmpty()) {
            // the same member twice
            fields.add(fields.get(random.nextInt(fields.size())));
        }
        return utf8("{" + String.join(", ", fields) + "}");
    }

    /** A field with its plausible value, a hostile one of its kind, any hostile value, or left out. */
    private void field(List<String> fields, String name, Supplier<String> plausible, Supplier<String> hostile) {
        var roll = random.nextInt(10);
        if (roll < 5) {
            fields.add(jsonString(name) + ": " + plausible.get());
        } else if (roll < 8) {
            fields.add(jsonString(name) + ": " + hostile.get());
        } else if (roll < 9) {
            fields.add(jsonString(name) + ": " + value());
        }
    }

    /** A hostile JSON string. */
    private String text() {
        return random.nextInt(3) == 0 ? jsonString(randomText(random.nextInt(40))) : jsonString(pick(STRINGS));
    }

    /** A hostile JSON number, or something in its place that is almost one. */
    private String number() {
        return random.nextInt(6) == 0 ? jsonString(pick(NUMBERS)) : pick(NUMBERS);
    }

    private byte[] hostileBody(List<Header> headers) {
        contentType(headers);
        return switch (random.nextInt(12)) {
            case 0 -> randomBytes(random.nextInt(300));
            case 1 -> {
                var valid = utf8("{\"name\": \"Hot\", \"stock\": 3, \"price\": 9.99, \"productId\": \""
                        + fixtures.productId() + "\", \"quantity\": 1}");
                yield java.util.Arrays.copyOf(valid, random.nextInt(valid.length));
            }
            case 2 ->
                utf8(pick(List.of("[]", "[{}]", "\"text\"", "42", "true", "null", "", " ", "{}", "{\"\": null}")));
            case 3 -> utf8(nested(1 + random.nextInt(random.nextBoolean() ? 40 : 3000)));
            case 4 -> utf8("{\"name\": \"" + "x".repeat(8_000 + random.nextInt(60_000)) + "\"}");
            case 5 -> utf8("{\"name\": \"a\"" + " ".repeat(10_000 + random.nextInt(30_000)) + "}");
            case 6 -> {
                // UTF-8 bytes that are not valid UTF-8 inside a string
                var out = new ByteArrayOutputStream();
                out.writeBytes(utf8("{\"name\": \""));
                out.writeBytes(
                        new byte[] {(byte) 0xc3, (byte) 0x28, (byte) 0xff, (byte) 0xed, (byte) 0xa0, (byte) 0x80});
                out.writeBytes(utf8("\", \"stock\": 1, \"price\": 1}"));
                yield out.toByteArray();
            }
            case 7 -> ("{\"name\": \"UTF-16\", \"stock\": 1, \"price\": 1}").getBytes(StandardCharsets.UTF_16);
            case 8 -> utf8("\ufeff{\"name\": \"BOM\", \"stock\": 1, \"price\": 1}");
            case 9 -> utf8("{\"name\": \"a\", \"stock\": 1, \"price\": 1} trailing");
            case 10 -> utf8("{'name': 'single quotes', stock: 1, /* comment */ \"price\": 1,}");
            default ->
                utf8("{\"productId\": " + value() + ", \"quantity\": " + value() + ", \"name\": " + value()
                        + ", \"stock\": " + value() + ", \"price\": " + value() + "}");
        };
    }

    /** A hostile JSON value. */
    private String value() {
        return switch (random.nextInt(9)) {
            case 0, 1 -> pick(NUMBERS);
            case 2, 3 -> jsonString(pick(STRINGS));
            case 4 -> jsonString(randomText(random.nextInt(40)));
            case 5 -> pick(List.of("null", "true", "false", "[]", "{}", "[1, 2]", "{\"a\": 1}", "[null]"));
            case 6 -> nested(1 + random.nextInt(60));
            case 7 -> jsonString(UUID.randomUUID().toString());
            default -> jsonString(hostileId());
        };
    }

    private String nested(int depth) {
        var open = random.nextBoolean() ? "[" : "{\"a\":";
        var close = open.equals("[") ? "]" : "}";
        return open.repeat(depth) + "1" + close.repeat(depth);
    }

    /** Something in the place of a UUID path segment or body field. */
    private String hostileId() {
        return switch (random.nextInt(6)) {
            case 0 -> UUID.randomUUID().toString();
            case 1 -> fixtures.orderId().toString().toUpperCase(Locale.ROOT);
            case 2 ->
                pick(List.of(
                        "00000000-0000-0000-0000-000000000000",
                        "0-0-0-0-0",
                        "{" + UUID.randomUUID() + "}",
                        UUID.randomUUID().toString().replace("-", ""),
                        UUID.randomUUID() + "0",
                        UUID.randomUUID().toString().substring(1),
                        "-1",
                        "0",
                        "null",
                        "undefined",
                        "ffffffff-ffff-ffff-ffff-ffffffffffffff",
                        "g0000000-0000-0000-0000-000000000000"));
            case 3 -> {
                var text = pick(STRINGS);
                yield text.substring(0, Math.min(300, text.length()));
            }
            case 4 -> randomText(1 + random.nextInt(50));
            default -> pick(List.of("%", "%25", "..", ".", ";", ";jsessionid=1", "a;b=c", "a?b", "a#b", "+", "~"));
        };
    }

    /**
     * An {@code Authorization} header: a valid token of the fixture order's owner (of an administrator where the
     * endpoint needs one) most of the time, so that the rest of the request is what gets judged; else another user's,
     * a tampered, expired, unsigned ({@code alg: none}) or garbled token, another scheme, two headers, or none.
     */
    private void authorization(List<Header> headers, boolean admin) {
        var valid = admin ? TestTokens.adminBearer() : bearer(fixtures.ownerId());
        switch (random.nextInt(14)) {
            case 0, 1, 2, 3, 4, 5 -> headers.add(header(AUTHORIZATION, valid));
            case 6 -> headers.add(header(AUTHORIZATION, admin ? bearer("someone-else") : TestTokens.adminBearer()));
            case 7 -> headers.add(header(AUTHORIZATION, tampered(valid)));
            case 8 -> headers.add(header(AUTHORIZATION, "Bearer " + unsigned(fixtures.ownerId())));
            case 9 ->
                headers.add(header(
                        AUTHORIZATION,
                        "Bearer " + TestTokens.TOKENS.mint(fixtures.ownerId(), List.of(), Duration.ofMinutes(-5))));
            case 10 -> headers.add(header(AUTHORIZATION, "Bearer " + headerSafe(pick(STRINGS))));
            case 11 ->
                headers.add(header(
                        AUTHORIZATION,
                        pick(List.of("", "Bearer", "Bearer ", "bearer", "Basic YWxpY2U6c2VjcmV0", "Token x"))
                                + headerSafe(randomText(random.nextInt(300)))));
            case 12 -> {
                headers.add(header(AUTHORIZATION, valid));
                headers.add(header(AUTHORIZATION, bearer("second-" + fixtures.ownerId())));
            }
            default -> {
                // no credentials
            }
        }
    }

    /** A valid token with one character of its payload or signature changed. */
    private String tampered(String bearerToken) {
        var chars = bearerToken.toCharArray();
        var at = "Bearer ".length() + random.nextInt(chars.length - "Bearer ".length());
        chars[at] = chars[at] == 'A' ? 'B' : 'A';
        return new String(chars);
    }

    /** An unsecured JWT ({@code alg: none}) claiming to be {@code subject}, admin included. */
    private static String unsigned(String subject) {
        var encoder = Base64.getUrlEncoder().withoutPadding();
        var header = encoder.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        var exp = Instant.now().plusSeconds(600).getEpochSecond();
        var payload = encoder.encodeToString(("{\"sub\":\"" + subject + "\",\"iss\":\""
                        + DevelopmentTokens.DEFAULT_ISSUER + "\",\"exp\":" + exp + ",\"roles\":[\"admin\"]}")
                .getBytes(StandardCharsets.UTF_8));
        return header + "." + payload + ".";
    }

    private void contentType(List<Header> headers) {
        var roll = random.nextInt(6);
        if (roll < 4) {
            headers.add(header("Content-Type", "application/json"));
        } else if (roll == 4) {
            headers.add(header("Content-Type", pick(CONTENT_TYPES)));
        }
    }

    private void accept(List<Header> headers) {
        if (random.nextInt(4) == 0) {
            headers.add(header("Accept", pick(ACCEPTS)));
        }
    }

    private RawHttp.Framing framing(byte[] body) {
        var roll = random.nextInt(20);
        if (roll == 0) {
            return new RawHttp.Chunked(1 + random.nextInt(4096));
        }
        if (roll == 1) {
            // claims less than it sends: the rest is garbage after the request
            return new RawHttp.Declared(random.nextInt(body.length + 1));
        }
        if (roll == 2) {
            // claims far more than the limit and sends little: must be refused without waiting for the rest
            return new RawHttp.Declared(16_385 + random.nextInt(1 << 30));
        }
        return new RawHttp.Exact();
    }

    /**
     * A header value as a client would put it on the wire: the text's UTF-8 bytes, with control characters (which
     * the HTTP parser refuses before the application sees them) replaced by a visible character.
     */
    private static byte[] headerSafeBytes(String text) {
        var bytes = text.getBytes(StandardCharsets.UTF_8);
        for (var i = 0; i < bytes.length; i++) {
            var b = bytes[i] & 0xff;
            if (b < 0x20 || b == 0x7f) {
                bytes[i] = '?';
            }
        }
        return bytes;
    }

    private static String headerSafe(String text) {
        return new String(headerSafeBytes(text), StandardCharsets.ISO_8859_1);
    }

    private static Header header(String name, String value) {
        return Header.of(name, value);
    }

    private String randomText(int length) {
        var text = new StringBuilder();
        for (var i = 0; i < length; i++) {
            text.append(
                    switch (random.nextInt(5)) {
                        case 0 -> (char) random.nextInt(0x20);
                        case 1 -> (char) (0x20 + random.nextInt(0x5f));
                        case 2 -> (char) (0x80 + random.nextInt(0x780));
                        case 3 -> (char) (0xd800 + random.nextInt(0x800));
                        default -> (char) random.nextInt(0x10000);
                    });
        }
        return text.toString();
    }

    private byte[] randomBytes(int length) {
        var bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** A JSON string literal of {@code text}: control characters and surrogates escaped, the rest as is. */
    static String jsonString(String text) {
        var out = new StringBuilder("\"");
        for (var i = 0; i < text.length(); i++) {
            var c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
