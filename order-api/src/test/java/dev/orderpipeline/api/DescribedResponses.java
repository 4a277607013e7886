package dev.orderpipeline.api;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Holds every answer of a production API to the description that API serves ({@code /v3/api-docs}): each response an
 * {@link ApiClient} receives from a described port is validated by Atlassian's OpenAPI validator (JSON Schema 2020-12
 * for OpenAPI 3.1) against the operation's response for its status (or the {@code default} one): its media type, its
 * body's schema (types, formats, enums, nullability, required members) and its required headers. A violation fails the
 * test that received the answer, so the description cannot drift from what the API sends.
 *
 * <p>Paths and methods the description does not hold (the actuator, Swagger UI, an unknown path, a method a path does
 * not map) are not described, and not checked. An instance with the lab on is not described: its checkout is the
 * lab's, and the description is the product's.
 */
public final class DescribedResponses {

    private static final Map<Integer, OpenApiInteractionValidator> DESCRIBED = new ConcurrentHashMap<>();

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private DescribedResponses() {}

    /** From now on, checks every answer from the API on {@code port} against the description it serves. */
    public static void describe(int port) {
        DESCRIBED.computeIfAbsent(port, DescribedResponses::validator);
    }

    /** A validator of answers against this description (a JSON or YAML text). */
    public static OpenApiInteractionValidator validator(String description) {
        return OpenApiInteractionValidator.createForInlineApiSpecification(description)
                .withLevelResolver(LevelResolver.create()
                        // the tests send bad requests on purpose: only the answers are judged
                        .withLevel("validation.request", ValidationReport.Level.IGNORE)
                        // not described: the actuator and Swagger UI, unknown paths, methods a path does not map
                        .withLevel("validation.request.path.missing", ValidationReport.Level.IGNORE)
                        .withLevel("validation.request.operation.notAllowed", ValidationReport.Level.IGNORE)
                        .build())
                .build();
    }

    /** The violations of the description in an answer, as text; empty when it holds. */
    public static String violations(
            OpenApiInteractionValidator validator, String method, String path, ApiClient.Response response) {
        var builder = SimpleResponse.Builder.status(response.status()).withBody(response.body());
        response.headers().map().forEach(builder::withHeader);
        response.header("Content-Type").ifPresent(builder::withContentType);
        var report = validator.validateResponse(
                path, Request.Method.valueOf(method.toUpperCase(Locale.ROOT)), builder.build());
        return report.getMessages().stream()
                .filter(message -> message.getLevel() == ValidationReport.Level.ERROR)
                .map(message -> message.getKey() + ": " + message.getMessage()
                        + (message.getAdditionalInfo().isEmpty() ? "" : " " + message.getAdditionalInfo()))
                .collect(Collectors.joining("\n"));
    }

    /** Fails when the answer from a described port breaks its description. */
    static void check(int port, String method, String pathAndQuery, ApiClient.Response response) {
        var validator = DESCRIBED.get(port);
        if (validator == null) {
            return;
        }
        var path = URI.create(pathAndQuery).getRawPath();
        var violations = violations(validator, method, path, response);
        if (!violations.isEmpty()) {
            throw new AssertionError("The answer to " + method + " " + pathAndQuery + " breaks the API description:\n"
                    + violations + "\nanswer: " + response);
        }
    }

    private static OpenApiInteractionValidator validator(int port) {
        return validator(description(port));
    }

    private static String description(int port) {
        try {
            var response = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v3/api-docs"))
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("no API description on port " + port + ": " + response.statusCode());
            }
            return response.body();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    /** Answers from {@code port} are not checked (an instance with the lab on, on a port a product had before). */
    public static void undescribed(int port) {
        DESCRIBED.remove(port);
    }
}
