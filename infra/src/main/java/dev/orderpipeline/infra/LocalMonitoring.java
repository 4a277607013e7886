package dev.orderpipeline.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prometheus, and the PostgreSQL exporter when it is installed, started beside the local stack from the
 * operating system's packages (Debian: {@code prometheus}, {@code prometheus-postgres-exporter}). They scrape the
 * same endpoints as the compose stack (each app's {@link AppProcess#metricsUrl()}, on its management port), so the
 * figures of a local lab run and the dashboards' come from the same metrics. Optional: {@code bin/run --prometheus}.
 */
public final class LocalMonitoring implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalMonitoring.class);

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

    private final ManagedProcess prometheus;
    private final @Nullable ManagedProcess exporter;
    private final int prometheusPort;

    private LocalMonitoring(ManagedProcess prometheus, @Nullable ManagedProcess exporter, int prometheusPort) {
        this.prometheus = prometheus;
        this.exporter = exporter;
        this.prometheusPort = prometheusPort;
    }

    /** An executable of that name on the PATH, if there is one. */
    static Optional<Path> onPath(String executable) {
        var path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.of(path.split(java.io.File.pathSeparator))
                .filter(folder -> !folder.isBlank())
                .map(folder -> Path.of(folder, executable))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /**
     * Writes the Prometheus configuration for these targets and starts Prometheus (and the exporter, if installed).
     *
     * @param workDirectory where the configuration, the time series and the logs go
     * @param prometheusPort the port Prometheus serves on
     * @param apiMetrics the Prometheus endpoints of the order-api processes
     * @param workerMetrics the Prometheus endpoints of the checkout-worker processes
     * @param exporterDataSource a libpq URL for the exporter, e.g. {@code postgresql://postgres@127.0.0.1:15432/db?sslmode=disable}
     * @throws IllegalStateException when Prometheus is not installed
     */
    public static LocalMonitoring start(
            Path workDirectory,
            int prometheusPort,
            List<URI> apiMetrics,
            List<URI> workerMetrics,
            String exporterDataSource) {
        var prometheusBinary = onPath("prometheus")
                .orElseThrow(() -> new IllegalStateException(
                        "--prometheus needs Prometheus on the PATH (Debian: apt-get install prometheus"
                                + " prometheus-postgres-exporter)"));
        var exporterBinary = onPath("prometheus-postgres-exporter");
        var exporterPort = exporterBinary.isPresent() ? FreePorts.one() : -1;
        var directory = workDirectory.resolve("prometheus").toAbsolutePath();
        var config = directory.resolve("prometheus.yml");
        try {
            Files.createDirectories(directory.resolve("data"));
            Files.writeString(config, configuration(apiMetrics, workerMetrics, exporterPort), StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException("could not write " + config, ex);
        }
        ManagedProcess exporter = null;
        if (exporterBinary.isPresent()) {
            exporter = new ManagedProcess(
                            "postgres-exporter",
                            List.of(exporterBinary.get().toString(), "--web.listen-address=127.0.0.1:" + exporterPort),
                            directory,
                            directory.resolve("postgres-exporter.log"),
                            Map.of("DATA_SOURCE_NAME", exporterDataSource))
                    .start();
        } else {
            log.info("prometheus-postgres-exporter is not installed: no PostgreSQL metrics");
        }
        var prometheus = new ManagedProcess(
                        "prometheus",
                        List.of(
                                prometheusBinary.toString(),
                                "--config.file=" + config,
                                "--storage.tsdb.path=" + directory.resolve("data"),
                                "--web.listen-address=127.0.0.1:" + prometheusPort),
                        directory,
                        directory.resolve("prometheus.log"))
                .start();
        var monitoring = new LocalMonitoring(prometheus, exporter, prometheusPort);
        prometheus.awaitReady(monitoring::isReady, READY_TIMEOUT);
        log.info("Prometheus ready at {}", monitoring.url());
        return monitoring;
    }

    /** The Prometheus configuration: one job per app kind, as in the compose stack, scraping every 5 seconds. */
    static String configuration(List<URI> apiMetrics, List<URI> workerMetrics, int exporterPort) {
        var jobs = new ArrayList<String>();
        jobs.add(job("order-api", apiMetrics));
        jobs.add(job("checkout-worker", workerMetrics));
        if (exporterPort > 0) {
            jobs.add(job("postgres", List.of(URI.create("http://127.0.0.1:" + exporterPort + "/metrics"))));
        }
        return """
                global:
                  scrape_interval: 5s
                  evaluation_interval: 5s
                scrape_configs:
                """ + String.join("", jobs);
    }

    /** A job scrapes one path on each of its targets: the endpoints of one app kind share theirs. */
    private static String job(String name, List<URI> endpoints) {
        var paths = endpoints.stream().map(URI::getPath).distinct().toList();
        if (paths.size() > 1) {
            throw new IllegalArgumentException("the targets of job " + name + " differ in their paths: " + paths);
        }
        var path = paths.isEmpty() ? "/metrics" : paths.getFirst();
        var targets = endpoints.stream()
                .map(endpoint -> "'" + endpoint.getAuthority() + "'")
                .collect(Collectors.joining(", "));
        return """
                  - job_name: %s
                    metrics_path: %s
                    static_configs:
                      - targets: [%s]
                """.formatted(name, path, targets);
    }

    private boolean isReady() throws IOException, InterruptedException {
        try (var client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build()) {
            var response = client.send(
                    HttpRequest.newBuilder(URI.create(url() + "/-/ready"))
                            .timeout(Duration.ofSeconds(2))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        }
    }

    /** Where Prometheus serves its UI and API. */
    public String url() {
        return "http://127.0.0.1:" + prometheusPort;
    }

    public List<ManagedProcess> processes() {
        return exporter == null ? List.of(prometheus) : List.of(prometheus, exporter);
    }

    @Override
    public void close() {
        prometheus.stop(Duration.ofSeconds(10));
        if (exporter != null) {
            exporter.stop(Duration.ofSeconds(10));
        }
    }
}
