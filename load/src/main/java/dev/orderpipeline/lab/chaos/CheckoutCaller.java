package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.measure.StatusCounts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The checkout call of the chaos load, on one API replica: unlike the other experiments it keeps what a client needs
 * to retry (the {@code Retry-After} of a 503) and the body of an unexpected answer, for the report.
 */
final class CheckoutCaller {

    /** The longest body kept from an unexpected answer. */
    private static final int BODY_SAMPLE = 500;

    private final String baseUrl;
    private final HttpClient http;
    private final Duration requestTimeout;
    private final Function<String, String> authorization;

    /** {@code authorization} gives the {@code Authorization} header of a buyer's user id. */
    CheckoutCaller(String baseUrl, HttpClient http, Duration requestTimeout, Function<String, String> authorization) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.http = http;
        this.requestTimeout = requestTimeout;
        this.authorization = authorization;
    }

    /**
     * What the API answered.
     *
     * @param status the HTTP status code, or {@link StatusCounts#TIMEOUT} / {@link StatusCounts#IO_ERROR}
     * @param retryAfterSeconds the {@code Retry-After} header in seconds, or {@code null} when absent or not a
     *     number of seconds
     * @param body the start of the body of an answer other than 202, 409 and 503, else empty
     */
    record Answer(String status, @Nullable Integer retryAfterSeconds, String body) {

        boolean accepted() {
            return "202".equals(status);
        }

        boolean unavailable() {
            return "503".equals(status);
        }

        /** No answer at all: the checkout may or may not have been handed to the broker. */
        boolean unanswered() {
            return StatusCounts.TIMEOUT.equals(status) || StatusCounts.IO_ERROR.equals(status);
        }
    }

    /** One checkout through the pipeline (the production checkout), no waiting for the decision. Never throws for the network's sake. */
    Answer checkout(UUID orderId, String userId) {
        var request = HttpRequest.newBuilder(URI.create(baseUrl + "/api/orders/" + orderId + "/checkout"))
                .timeout(requestTimeout)
                .header("Accept", "application/json")
                .header("Authorization", authorization.apply(userId))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        try {
            var response = http.send(request, HttpResponse.BodyHandlers.ofString());
            var status = response.statusCode();
            var body = status == 202 || status == 409 || status == 503 ? "" : sample(response.body());
            return new Answer(
                    Integer.toString(status),
                    retryAfterSeconds(
                            response.headers().firstValue("Retry-After").orElse(null)),
                    body);
        } catch (HttpTimeoutException ex) {
            return new Answer(StatusCounts.TIMEOUT, null, "");
        } catch (IOException ex) {
            return new Answer(StatusCounts.IO_ERROR, null, sample(ex.toString()));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return new Answer(StatusCounts.IO_ERROR, null, "interrupted");
        }
    }

    /** RFC 9110 allows seconds or an HTTP date; the API sends seconds, and a date counts as absent here. */
    static @Nullable Integer retryAfterSeconds(@Nullable String header) {
        if (header == null || !header.strip().matches("\\d{1,6}")) {
            return null;
        }
        return Integer.valueOf(header.strip());
    }

    private static String sample(@Nullable String body) {
        if (body == null) {
            return "";
        }
        return body.length() <= BODY_SAMPLE ? body : body.substring(0, BODY_SAMPLE) + "...";
    }
}
