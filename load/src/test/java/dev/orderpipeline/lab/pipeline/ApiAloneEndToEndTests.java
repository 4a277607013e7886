package dev.orderpipeline.lab.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.backlog.KeyDistribution;
import dev.orderpipeline.lab.drain.CeilingSettings;
import dev.orderpipeline.lab.drain.DrainExperiment;
import dev.orderpipeline.lab.drain.DrainReport;
import dev.orderpipeline.lab.drain.DrainSettings;
import dev.orderpipeline.lab.measure.Progress;
import dev.orderpipeline.lab.report.Machine;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.ReportWriter;
import dev.orderpipeline.lab.report.Versions;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two experiments on one stack of the API alone, started from the packaged jars (no worker: the drain starts its own,
 * the storm reads a product), one after the other so that they share its start instead of paying one each.
 *
 * <p>The drain, first: 5,000 checkouts of one hot product on the topic (enough for a backlog that takes the worker
 * several polls of its largest batch), then a worker process started by the lab; the group's lag must reach zero and
 * the database must hold every invariant.
 *
 * <p>The storm, second, so that nothing runs on an API it may have strained: more clients than the API holds
 * connections, each sending its next request as soon as the last one is answered, against order-api as it ships (its
 * jvm.options: 160 MB of heap, an {@code OutOfMemoryError} ends the process). The API must stay up, answer what it
 * takes (a product, or 503 overloaded, never a 500), and serve as before once the clients leave. With Tomcat's
 * default of 8,192 connections, the same clients killed the API within seconds: every connection whose request
 * Tomcat holds costs about 100 KB of heap, and no thread pool bounds those requests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ApiAloneEndToEndTests {

    private static final int COMMANDS = 5_000;

    private static final int CLIENTS = 2_000;
    /** Long enough: with Tomcat's defaults the same storm ended the API within a few seconds. */
    private static final Duration LOAD = Duration.ofSeconds(10);

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path output;

    private TestStack stack;

    @AutoClose
    private StackTarget target;

    @BeforeAll
    void startTheApiAlone(@TempDir Path workDirectory) {
        stack = TestStack.create(workDirectory, "lab_api_alone", 0);
        // the drain's backlog spreads over three partitions; the storm reads a product
        target = StackTarget.start(stack.config().withPartitions(3), 1, Duration.ofSeconds(30));
    }

    @Test
    @Order(1)
    void aDrainEmptiesTheBacklogToZeroLagAndKeepsEveryInvariant() throws Exception {
        var settings = new DrainSettings(
                COMMANDS,
                KeyDistribution.HOT,
                1,
                Duration.ofMillis(500),
                Duration.ofMinutes(5),
                new CeilingSettings(List.of(100), 1_000, Duration.ofSeconds(10), 1));
        var startedAt = Instant.now();

        assertThat(target.stack().workers()).isEmpty();
        var run = new DrainExperiment(target, settings, Progress.silent()).run();
        var header = new ReportHeader(
                "drain",
                target.description(),
                Machine.current(),
                Versions.collect(TestStack.PROJECT, target.database()),
                startedAt,
                Instant.now());
        ReportWriter.write(new DrainReport(header, settings, run, List.of()), output);

        assertThat(run.perSecondFromStart()).isPositive();
        assertThat(run.results().orders()).isEqualTo(COMMANDS);
        assertThat(run.invariants().holds())
                .as(run.invariants().violations().toString())
                .isTrue();
        assertThat(run.invariants().completed()).isEqualTo(COMMANDS);
        assertThat(run.resources().processes())
                .extracting(usage -> usage.kind())
                .contains(StackTarget.WORKER, "lab");
        for (var ceiling : List.of(run.ceilingBefore(), run.ceilingAfter())) {
            assertThat(ceiling).singleElement().satisfies(k100 -> {
                assertThat(k100.batchSize()).isEqualTo(100);
                assertThat(k100.invariants().holds()).isTrue();
            });
        }

        // the database agrees with the report on its own
        var database = stack.dataSource();
        try (var connection = database.getConnection();
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT id FROM product WHERE name LIKE 'lab drain-%'")) {
            rows.next();
            var product = rows.getObject(1, java.util.UUID.class);
            var truth = new InvariantChecker(database).check(product, 2 * COMMANDS);
            assertThat(truth.holds()).isTrue();
            assertThat(truth.completedOrders()).isEqualTo(COMMANDS);
        }
        for (var file : List.of(ReportWriter.JSON_FILE, ReportWriter.MARKDOWN_FILE)) {
            assertThat(output.resolve(file)).isNotEmptyFile();
        }
    }

    @Test
    @Order(2)
    void moreClientsThanConnectionsLeaveTheApiUp() throws Exception {
        try (var http = ApiClient.newHttpClient()) {
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
