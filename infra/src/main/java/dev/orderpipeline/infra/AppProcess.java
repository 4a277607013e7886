package dev.orderpipeline.infra;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Spring Boot application run from its executable jar as a process of its own, on a given HTTP port, with its
 * actuator probes on its management port (order-api's own port; the worker's HTTP port, which serves nothing else):
 * the API replicas and workers of the launcher and of the lab, which start, count, scale and kill them. Where the
 * actuator's endpoints are is said here only.
 */
public final class AppProcess {

    /** Spring Boot's graceful shutdown waits up to 30 s for requests in flight; give it a little more. */
    public static final Duration DEFAULT_STOP_GRACE = Duration.ofSeconds(35);

    /** Spring Boot's launcher that reads {@code loader.path}; the jar's own (JarLauncher) does not. */
    public static final String PROPERTIES_LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";

    private static final String HEALTH_PATH = "/actuator/health";
    private static final String READINESS_PATH = "/actuator/health/readiness";
    private static final String METRICS_PATH = "/actuator/prometheus";

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private final String name;
    private final int port;
    private final int managementPort;
    private final ManagedProcess process;

    private AppProcess(String name, int port, int managementPort, ManagedProcess process) {
        this.name = name;
        this.port = port;
        this.managementPort = managementPort;
        this.process = process;
    }

    /**
     * Describes (does not start) a Spring Boot jar run as {@code java <jvmOptions> -jar <jar> --server.port=<port>
     * <arguments>}, writing its output to {@code logFile}, its actuator on the same port. Fails when the jar has not
     * been built.
     */
    public static AppProcess springBoot(
            String name, Path jar, int port, List<String> jvmOptions, List<String> arguments, Path logFile) {
        return springBoot(name, jar, port, jvmOptions, arguments, Map.of(), logFile);
    }

    /** As above, with extra environment variables (secrets belong there rather than on the command line). */
    public static AppProcess springBoot(
            String name,
            Path jar,
            int port,
            List<String> jvmOptions,
            List<String> arguments,
            Map<String, String> environment,
            Path logFile) {
        return springBoot(name, jar, port, port, jvmOptions, arguments, environment, logFile);
    }

    /**
     * As above, with the actuator on a port of its own ({@code --management.server.port}) when {@code
     * managementPort} differs from {@code port}: order-api serves only its API on {@code port}.
     */
    public static AppProcess springBoot(
            String name,
            Path jar,
            int port,
            int managementPort,
            List<String> jvmOptions,
            List<String> arguments,
            Map<String, String> environment,
            Path logFile) {
        return springBoot(name, jar, List.of(), port, managementPort, jvmOptions, arguments, environment, logFile);
    }

    /**
     * As above, with {@code loaderPath} added to the jar's class path when it is not empty: the jar then starts
     * through Spring Boot's {@link #PROPERTIES_LAUNCHER} ({@code java -cp <jar> -Dloader.path=<paths>
     * PropertiesLauncher}), which loads the application from the jar as its own launcher does, and the jars and
     * folders of {@code loaderPath} beside it (a folder's jars included): the lab's strategies inside order-api.
     */
    public static AppProcess springBoot(
            String name,
            Path jar,
            List<Path> loaderPath,
            int port,
            int managementPort,
            List<String> jvmOptions,
            List<String> arguments,
            Map<String, String> environment,
            Path logFile) {
        for (var path : loaderPath) {
            if (!Files.exists(path)) {
                throw new IllegalStateException(
                        path.toAbsolutePath().normalize() + " is missing: run mvn package first (bin/run builds it)");
            }
        }
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    jar.toAbsolutePath().normalize() + " is missing: run mvn package first (bin/run builds it)");
        }
        requirePort(port);
        requirePort(managementPort);
        var command = new ArrayList<String>();
        command.add(ManagedProcess.javaExecutable());
        command.addAll(jvmOptions);
        if (loaderPath.isEmpty()) {
            command.add("-jar");
            command.add(absolute(jar));
        } else {
            command.add("-Dloader.path="
                    + String.join(
                            ",", loaderPath.stream().map(AppProcess::absolute).toList()));
            command.add("-cp");
            command.add(absolute(jar));
            command.add(PROPERTIES_LAUNCHER);
        }
        command.add("--server.port=" + port);
        if (managementPort != port) {
            command.add("--management.server.port=" + managementPort);
        }
        // the readiness group exists by itself only on Kubernetes; the launcher waits on it everywhere
        command.add("--management.endpoint.health.probes.enabled=true");
        command.addAll(arguments);
        // an absolute file path always has a parent
        var workingDirectory = Objects.requireNonNull(logFile.toAbsolutePath().getParent(), "log file's folder");
        return new AppProcess(
                name, port, managementPort, new ManagedProcess(name, command, workingDirectory, logFile, environment));
    }

    private static String absolute(Path path) {
        return path.toAbsolutePath().normalize().toString();
    }

    private static void requirePort(int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("not a TCP port: " + port);
        }
    }

    public AppProcess start() {
        process.start();
        return this;
    }

    /** Waits until {@link #readinessUrl()} answers UP (HTTP 200). */
    public AppProcess awaitReady(Duration timeout) {
        process.awaitReady(this::isReady, timeout);
        return this;
    }

    /** Whether the app is accepting traffic now, according to its readiness probe. */
    public boolean isReady() throws IOException, InterruptedException {
        var response = HTTP.send(
                HttpRequest.newBuilder(readinessUrl())
                        .timeout(Duration.ofSeconds(2))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        return response.statusCode() == 200;
    }

    /** Stops it the way an orchestrator does (SIGTERM, then SIGKILL after the grace period). */
    public int stop() {
        return process.stop(DEFAULT_STOP_GRACE);
    }

    public int stop(Duration grace) {
        return process.stop(grace);
    }

    /** kill -9. */
    public int kill() {
        return process.kill();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    public String name() {
        return name;
    }

    /** The port the app serves its traffic on (order-api: the API and its description only). */
    public int port() {
        return port;
    }

    /** The port of the app's actuator: health, info, Prometheus; the same as {@link #port()} for the worker. */
    public int managementPort() {
        return managementPort;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public URI healthUrl() {
        return managementUrl(HEALTH_PATH);
    }

    public URI readinessUrl() {
        return managementUrl(READINESS_PATH);
    }

    /** Prometheus scrape endpoint (micrometer-registry-prometheus is on both apps' classpath). */
    public URI metricsUrl() {
        return metricsUrl("127.0.0.1", managementPort);
    }

    /** The Prometheus scrape endpoint of an app on {@code host} whose actuator listens on {@code managementPort}. */
    public static URI metricsUrl(String host, int managementPort) {
        return URI.create("http://" + host + ":" + managementPort + METRICS_PATH);
    }

    private URI managementUrl(String path) {
        return URI.create("http://127.0.0.1:" + managementPort + path);
    }

    public Path logFile() {
        return process.logFile();
    }

    public ManagedProcess process() {
        return process;
    }

    @Override
    public String toString() {
        return process + " on port " + port + (managementPort == port ? "" : ", actuator on " + managementPort);
    }
}
