package dev.orderpipeline.lab.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * More clients than the API holds connections, each sending its next request as soon as the last one is answered,
 * against order-api as it ships (its jvm.options: 160 MB of heap, an {@code OutOfMemoryError} ends the process). The
 * API must stay up, answer what it takes (a product, or 503 overloaded, never a 500), and serve as before once the
 * clients leave. With Tomcat's default of 8,192 connections, the same clients killed the API within seconds: every
 * connection whose request Tomcat holds costs about 100 KB of heap, and no thread pool bounds those requests.
 */
class OverloadEndToEndTests {

    private static final int CLIENTS = 2_000;
    /** Long enough: with Tomcat's defaults the same storm ended the API within a few seconds. */
    private static final Duration LOAD = Duration.ofSeconds(10);

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path workDirectory;

    @Test
    void moreClientsThanConnectionsLeaveTheApiUp() throws Exception {
        // the storm reads a product: no checkout, so no worker
        var stack = TestStack.create(workDirectory, "lab_overload", 0);
        var config = stack.config();
        try (var target = StackTarget.start(config, 1, Duration.ofSeconds(30));
                var http = ApiClient.newHttpClient()) {
            var api = target.apis().getFirst();
            var product = api.createProduct("Overload", 1, new BigDecimal("1.00"));
            var read = HttpRequest.newBuilder(URI.create(api.baseUrl() + "/api/products/" + product))
                    .timeout(REQUEST_TIMEOUT)
                    .GET()
                    .build();

            var outcomes = storm(http, read);

            var apiProcess = target.stack().api();
            System.out.printf("overload: %d clients for %d s, outcomes %s%n", CLIENTS, LOAD.toSeconds(), outcomes);
            assertThat(apiProcess.isAlive()).as("order-api survived").isTrue();
            var after = await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptions()
                    .until(() -> http.send(read, HttpResponse.BodyHandlers.discarding()), response -> true);
            assertThat(after.statusCode()).isEqualTo(200);
            assertThat(outcomes).containsKey("200").doesNotContainKey("500");
            assertThat(outcomes.keySet())
                    .as("only a product, a refusal or a client-side wait")
                    .allMatch(outcome -> outcome.equals("200") || outcome.equals("503") || !outcome.matches("\\d+"));
        }
    }

    /** {@link #CLIENTS} closed loops released together for {@link #LOAD}: outcome (a status or an error) to count. */
    private static Map<String, Long> storm(HttpClient http, HttpRequest read) throws InterruptedException {
        var outcomes = new ConcurrentHashMap<String, LongAdder>();
        var start = new CountDownLatch(1);
        var deadline = System.nanoTime() + LOAD.toNanos();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var client = 0; client < CLIENTS; client++) {
                executor.submit(() -> {
                    start.await();
                    while (System.nanoTime() - deadline < 0) {
                        outcomes.computeIfAbsent(send(http, read), key -> new LongAdder())
                                .increment();
                    }
                    return null;
                });
            }
            start.countDown();
        }
        var counts = new TreeMap<String, Long>();
        outcomes.forEach((outcome, count) -> counts.put(outcome, count.sum()));
        return counts;
    }

    private static String send(HttpClient http, HttpRequest request) throws InterruptedException {
        try {
            return Integer.toString(
                    http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
        } catch (IOException ex) {
            return ex.getClass().getSimpleName();
        }
    }
}
