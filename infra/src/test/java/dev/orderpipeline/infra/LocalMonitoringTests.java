package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

class LocalMonitoringTests {

    @Test
    void configuresOneJobPerAppKindScrapingTheActuatorEndpoints() {
        var config = LocalMonitoring.configuration(
                List.of(AppProcess.metricsUrl("127.0.0.1", 9080), AppProcess.metricsUrl("127.0.0.1", 9090)),
                List.of(AppProcess.metricsUrl("127.0.0.1", 8081)),
                9187);

        Map<String, Object> parsed = new Yaml().load(config);
        @SuppressWarnings("unchecked")
        var jobs = (List<Map<String, Object>>) parsed.get("scrape_configs");
        assertThat(jobs)
                .extracting(job -> job.get("job_name"))
                .containsExactly("order-api", "checkout-worker", "postgres");
        assertThat(jobs.get(0).get("metrics_path")).isEqualTo("/actuator/prometheus");
        assertThat(jobs.get(0).toString()).contains("127.0.0.1:9080", "127.0.0.1:9090");
        assertThat(jobs.get(1).toString()).contains("127.0.0.1:8081");
        assertThat(jobs.get(2).get("metrics_path")).isEqualTo("/metrics");
    }

    @Test
    void leavesOutThePostgresJobWithoutAnExporter() {
        assertThat(LocalMonitoring.configuration(
                        List.of(AppProcess.metricsUrl("127.0.0.1", 9080)),
                        List.of(AppProcess.metricsUrl("127.0.0.1", 8081)),
                        -1))
                .doesNotContain("postgres");
    }

    @Test
    void startsPrometheusWhereItIsInstalled(@TempDir Path work) throws Exception {
        assumeThat(LocalMonitoring.onPath("prometheus"))
                .as("Prometheus installed")
                .isPresent();
        try (var monitoring = LocalMonitoring.start(
                        work,
                        FreePorts.one(),
                        List.of(AppProcess.metricsUrl("127.0.0.1", FreePorts.one())),
                        List.of(AppProcess.metricsUrl("127.0.0.1", FreePorts.one())),
                        "postgresql://postgres@127.0.0.1:5432/postgres?sslmode=disable");
                var client = HttpClient.newHttpClient()) {
            // the configuration Prometheus loaded (targets show up only after their first discovery round)
            var loaded = client.send(
                    HttpRequest.newBuilder(URI.create(monitoring.url() + "/api/v1/status/config"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(loaded.statusCode()).isEqualTo(200);
            assertThat(loaded.body())
                    .contains("job_name: order-api", "job_name: checkout-worker", "job_name: postgres");
        }
    }
}
