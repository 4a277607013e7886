package dev.orderpipeline.api;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What operators and the load runner read: probes, health and Prometheus metrics. */
class OperationsTests extends ApiTestSupport {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? \\S+$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    @Test
    void answersTheReadinessAndLivenessProbes() {
        assertThat(management.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(management.get("/actuator/health/liveness").status()).isEqualTo(200);
    }

    @Test
    void judgesReadinessByTheDatabaseAndTheProducersMetadataAndLivenessByTheProcessAlone() {
        var readiness = management.get("/actuator/health/readiness");
        var liveness = management.get("/actuator/health/liveness");

        assertThat(readiness.json().get("components").propertyNames())
                .containsExactlyInAnyOrder("readinessState", "db", "checkoutPublishing");
        // fetched while the API started, with the broker up
        assertThat(readiness.json().at("/components/checkoutPublishing/status").asString())
                .isEqualTo("UP");
        assertThat(liveness.json().get("components").propertyNames()).containsExactly("livenessState");
    }

    @Test
    void reportsTheBrokerInTheOverallHealthOnly() {
        var kafka = management.get("/actuator/health/kafka");
        var health = management.get("/actuator/health");

        assertThat(kafka.status()).as(kafka::toString).isEqualTo(200);
        assertThat(kafka.json().get("status").asString()).isEqualTo("UP");
        assertThat(health.json().get("components").has("kafka")).isTrue();
        assertThat(management
                        .get("/actuator/health/readiness")
                        .json()
                        .get("components")
                        .has("kafka"))
                .isFalse();
    }

    @Test
    void exposesTheCheckoutTimerWithAHistogram() {
        var alice = newUser();
        var orderId = createOrderId(alice);
        assertThat(api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice))
                        .status())
                .isEqualTo(202);

        var scrape = management.send("GET", "/actuator/prometheus", null, "text/plain", "Accept", "text/plain");

        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.body())
                .contains("checkout_requests_seconds_bucket{")
                .containsPattern("checkout_requests_seconds_count\\{[^}]*outcome=\"accepted\"")
                .doesNotContain("lab_checkout")
                .contains("checkout_waiters");
    }

    @Test
    void exposesThePipelineDatabaseHttpAndRuntimeMetricsWithLowCardinalityTags() {
        var alice = newUser();
        var orderId = createOrderId(alice);
        assertThat(api.post("/api/orders/" + orderId + "/checkout", null, AUTHORIZATION, bearer(alice))
                        .status())
                .isEqualTo(202);

        var scrape = management.send("GET", "/actuator/prometheus", null, "text/plain", "Accept", "text/plain");
        var samples = samples(scrape.body());
        var names = new LinkedHashSet<String>();
        samples.forEach(sample -> names.add(sample.name()));

        // checkout: a histogram per outcome, and nothing of the lab's, which is off
        assertThat(samples)
                .anySatisfy(sample -> assertThat(sample.line())
                        .startsWith("checkout_requests_seconds_bucket{")
                        .contains("outcome=\"accepted\"", "le=\""));
        assertThat(samples)
                .filteredOn(sample -> sample.name().startsWith("checkout_requests"))
                .allSatisfy(sample -> assertThat(sample.line()).doesNotContain("strategy="));
        assertThat(names).noneMatch(name -> name.startsWith("lab_") || name.startsWith("checkout_retries"));
        // HTTP by route template, never by concrete path
        assertThat(samples)
                .anySatisfy(sample -> assertThat(sample.line())
                        .startsWith("http_server_requests_seconds_count{")
                        .contains("uri=\"/api/orders/{id}/checkout\"", "status=\"202\""));
        // the database pool, the producer the pipeline depends on, the runtime
        assertThat(names)
                .contains(
                        "hikaricp_connections_active",
                        "hikaricp_connections_pending",
                        "kafka_producer_record_send_total",
                        "kafka_producer_request_latency_avg",
                        "kafka_producer_record_error_total",
                        "jvm_memory_used_bytes",
                        "jvm_threads_live_threads",
                        "jvm_classes_loaded_classes",
                        "process_cpu_usage",
                        "process_uptime_seconds");
        // an id as a label value would make a series per order, product or consumer
        var idLabels = new ArrayList<String>();
        for (var sample : samples) {
            sample.labels().forEach(label -> {
                if (UUID_TEXT.matcher(label).find()) {
                    idLabels.add(sample.line());
                }
            });
        }
        assertThat(idLabels).as("samples with an id in a label value").isEmpty();
    }

    private record Sample(String line, String name, List<String> labels) {}

    private static List<Sample> samples(String exposition) {
        var samples = new ArrayList<Sample>();
        for (var line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            var matcher = SAMPLE.matcher(line);
            assertThat(matcher.matches()).as("a sample line: %s", line).isTrue();
            var labels = new ArrayList<String>();
            if (matcher.group(2) != null) {
                var label = LABEL.matcher(matcher.group(2));
                while (label.find()) {
                    labels.add(label.group(2));
                }
            }
            samples.add(new Sample(line, matcher.group(1), List.copyOf(labels)));
        }
        assertThat(samples).isNotEmpty();
        return samples;
    }
}
