package dev.orderpipeline.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A plain HTTP client for the API under test, so tests see exactly what a real client sees. It sends an
 * administrator's bearer token unless a request brings its own {@code Authorization} header, so that tests about
 * something else can create products; {@link #anonymous(int)} sends none. Every answer
 * from a port whose description is known is checked against it ({@link DescribedResponses}).
 */
public final class ApiClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * One connection pool for every test in the JVM, as a real client keeps one: a client per test would leave its
     * idle connections open on the API until their keep-alive ends, and a few races of 300 buyers in a row would
     * fill the API's server.tomcat.max-connections with them.
     */
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final int port;
    private final String baseUrl;
    private final @Nullable String defaultAuthorization;

    /** A client that acts as an administrator unless told otherwise. */
    public ApiClient(int port) {
        this(port, TestTokens.adminBearer());
    }

    private ApiClient(int port, @Nullable String defaultAuthorization) {
        this.port = port;
        this.baseUrl = "http://127.0.0.1:" + port;
        this.defaultAuthorization = defaultAuthorization;
    }

    /** A client that sends no credentials of its own. */
    public static ApiClient anonymous(int port) {
        return new ApiClient(port, null);
    }

    public Response get(String path, String... headers) {
        return send("GET", path, null, "application/json", headers);
    }

    public Response post(String path, @Nullable String json, String... headers) {
        return send("POST", path, json, "application/json", headers);
    }

    /** Any method, body and content type; {@code headers} are name, value pairs. */
    public Response send(String method, String path, @Nullable String body, String contentType, String... headers) {
        var request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(60))
                .header("Accept", "application/json, application/problem+json")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", contentType);
        }
        var authorizes = false;
        for (var i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
            authorizes |= headers[i].equalsIgnoreCase(TestTokens.AUTHORIZATION);
        }
        if (!authorizes && defaultAuthorization != null) {
            request.header(TestTokens.AUTHORIZATION, defaultAuthorization);
        }
        try {
            var response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            var answer = new Response(response.statusCode(), response.headers(), response.body());
            DescribedResponses.check(port, method, path, answer);
            return answer;
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    /** A response as received. */
    public record Response(int status, java.net.http.HttpHeaders headers, String body) {

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        public String contentType() {
            return header("Content-Type").orElse("");
        }

        @Override
        public String toString() {
            return status + " " + headers.map() + " " + body;
        }
    }
}
