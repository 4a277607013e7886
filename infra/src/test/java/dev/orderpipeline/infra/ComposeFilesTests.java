package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Docker Compose stack in {@code infra/compose}, read the way Compose would read it, on any machine ({@link
 * DockerPathTests} starts it where Docker runs): these tests merge the cluster override over the base file, and check
 * that its parts name each other: the services they depend on, the files they mount, the ports Prometheus scrapes,
 * the data source the dashboards use, the listeners the Kafka clients connect to, and the replication the broker
 * count allows.
 */
class ComposeFilesTests {

    /** Surefire runs in the module directory, and the stack lives in it. */
    private static final Path COMPOSE_DIRECTORY = Path.of("compose").toAbsolutePath();

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The services built from this repository: Spring Boot apps with actuator and a Prometheus endpoint. */
    private static final List<String> APPS = List.of("order-api", "checkout-worker");

    private static final Map<String, Integer> DEFAULT_APP_PORTS = Map.of("order-api", 8080, "checkout-worker", 8081);
    /** The actuator's port where application.yml sets {@code management.server.port}; else the server port. */
    private static final Map<String, Integer> DEFAULT_MANAGEMENT_PORTS = Map.of("order-api", 9080);

    /** The worker runs as many replicas: no fixed name, no fixed host port. */
    private static final String SCALED_SERVICE = "checkout-worker";

    private static final String PROMETHEUS_PATH = "/actuator/prometheus";

    /** {@code ${NAME}}, {@code ${NAME:-default}} or {@code ${NAME-default}}, and the escape {@code $$}. */
    private static final Pattern VARIABLE =
            Pattern.compile("\\$\\$|\\$\\{(?<name>[A-Za-z_][A-Za-z0-9_]*)(?::?-(?<default>[^}]*))?}|\\$[A-Za-z_]");

    private static final Pattern JDBC_URL =
            Pattern.compile("jdbc:postgresql://(?<host>[^:/]+):(?<port>\\d+)/(?<database>[^?]+)(\\?.*)?");

    private static final Pattern HEAP = Pattern.compile("-Xmx(\\d+)([kKmMgG])");

    enum Variant {
        SINGLE_NODE(1, 1, "compose.yaml"),
        KAFKA_CLUSTER(3, 2, "compose.yaml", "compose.kafka-cluster.yaml");

        final int brokers;
        final int minInSyncReplicas;
        final List<String> files;

        Variant(int brokers, int minInSyncReplicas, String... files) {
            this.brokers = brokers;
            this.minInSyncReplicas = minInSyncReplicas;
            this.files = List.of(files);
        }

        Stack load() {
            JsonNode model = JSON.createObjectNode();
            for (var file : files) {
                model = merge(model, readYaml(COMPOSE_DIRECTORY.resolve(file)), "");
            }
            return new Stack(model);
        }
    }

    @Test
    void everyComposeFileParsesAndDeclaresServices() throws IOException {
        try (Stream<Path> files = Files.list(COMPOSE_DIRECTORY)) {
            var composeFiles = files.filter(
                            file -> file.getFileName().toString().matches("compose.*\\.ya?ml"))
                    .sorted()
                    .toList();
            assertThat(composeFiles)
                    .extracting(file -> file.getFileName().toString())
                    .containsExactlyInAnyOrderElementsOf(Stream.of(Variant.values())
                            .flatMap(variant -> variant.files.stream())
                            .distinct()
                            .toList());
            for (var file : composeFiles) {
                var model = readYaml(file);
                assertThat(model.path("services").isObject())
                        .as("%s has services", file.getFileName())
                        .isTrue();
                assertThat(model.path("services").size()).isPositive();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void everyDependencyIsAServiceThatSaysWhenItIsReady(Variant variant) {
        var stack = variant.load();
        for (var service : stack.serviceNames()) {
            stack.dependencies(service).forEach((dependency, condition) -> {
                assertThat(stack.serviceNames())
                        .as("%s depends on %s", service, dependency)
                        .contains(dependency);
                assertThat(condition)
                        .as("%s waits for %s", service, dependency)
                        .isIn("service_healthy", "service_completed_successfully");
                if (condition.equals("service_healthy")) {
                    assertThat(stack.healthcheck(dependency))
                            .as("%s waits for %s to be healthy, so it needs a healthcheck", service, dependency)
                            .isNotEmpty();
                }
            });
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void everyMountedHostPathExistsAndEveryNamedVolumeIsDeclared(Variant variant) {
        var stack = variant.load();
        var declaredVolumes = stack.model().path("volumes").propertyNames();
        for (var service : stack.serviceNames()) {
            for (var mount : stack.mounts(service)) {
                if (mount.bind()) {
                    assertThat(Path.of(mount.source()))
                            .as(
                                    "%s mounts %s: relative to the compose files, never a path of one machine",
                                    service, mount)
                            .isRelative();
                    assertThat(COMPOSE_DIRECTORY.resolve(mount.source()).normalize())
                            .as("%s mounts %s", service, mount)
                            .exists();
                } else {
                    assertThat(declaredVolumes)
                            .as("%s mounts the named volume %s", service, mount.source())
                            .contains(mount.source());
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theAppsAreBuiltFromDockerfilesOfTheirOwnModule(Variant variant) throws IOException {
        var stack = variant.load();
        assertThat(stack.builtServices()).containsAll(APPS);
        // another service built is one of the apps' images, used for another command (migrate)
        for (var other : stack.builtServices()) {
            if (!APPS.contains(other)) {
                assertThat(APPS)
                        .as("%s is built as one of the apps' images", other)
                        .anySatisfy(app -> {
                            assertThat(stack.service(other).path("build"))
                                    .isEqualTo(stack.service(app).path("build"));
                            assertThat(stack.service(other).path("image"))
                                    .isEqualTo(stack.service(app).path("image"));
                        });
            }
        }
        for (var app : APPS) {
            var build = stack.service(app).path("build");
            var context =
                    COMPOSE_DIRECTORY.resolve(build.path("context").asString()).normalize();
            assertThat(context.resolve("pom.xml"))
                    .as("the build context of %s is the repository root", app)
                    .exists();
            var dockerfile = context.resolve(build.path("dockerfile").asString("Dockerfile"));
            assertThat(dockerfile).as("Dockerfile of %s", app).exists();
            assertThat(dockerfile).isEqualTo(context.resolve(app).resolve("Dockerfile"));

            var text = Files.readString(dockerfile);
            assertThat(text)
                    .contains("FROM maven:3.9-eclipse-temurin-25 AS build")
                    .contains("FROM eclipse-temurin:25-jre")
                    .contains("EXPOSE " + stack.serverPort(app));
            assertThat(text.lines().filter(line -> line.startsWith("EXPOSE ")))
                    .as("%s exposes its actuator's port", app)
                    .anyMatch(line -> List.of(line.split(" ")).contains(String.valueOf(stack.managementPort(app))));
            assertThat(text)
                    .as("%s builds from the whole repository, so that no module of the reactor can be missing", app)
                    .contains("\nCOPY . .\n")
                    .as("%s builds the app and what it uses, without the tests and what only they use", app)
                    .contains("mvn -B -ntp -P app-image -pl '" + app + ",!infra' -am package");
            // a `# syntax=` line makes BuildKit fetch its frontend from a registry
            assertThat(text.lines()).noneMatch(line -> line.startsWith("# syntax="));
            assertThat(text)
                    .as("%s has its healthcheck's probe, as the runtime image has no HTTP client", app)
                    .contains("COPY infra/docker/probe");
            assertThat(text)
                    .as("%s takes its JVM flags from the jvm.options the launchers read", app)
                    .contains("COPY " + app + "/jvm.options ./")
                    .contains("ENV JDK_JAVA_OPTIONS=\"@/app/jvm.options\"");
            assertThat(text.lines().filter(line -> line.startsWith("USER ")))
                    .as("%s runs as a user of its own", app)
                    .isNotEmpty()
                    .noneMatch(line -> line.equals("USER root") || line.equals("USER 0"));
            // every COPY from the build context names something that exists in the repository
            text.lines()
                    .filter(line -> line.startsWith("COPY ") && !line.startsWith("COPY --from"))
                    .map(line -> line.split("\\s+"))
                    .forEach(words -> {
                        for (int i = 1; i < words.length - 1; i++) {
                            assertThat(context.resolve(words[i]))
                                    .as("%s copies %s", dockerfile, words[i])
                                    .exists();
                        }
                    });
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void everyLongRunningServiceHasAHealthcheckAMemoryLimitAndARestartPolicy(Variant variant) {
        var stack = variant.load();
        for (var service : stack.serviceNames()) {
            var restart = stack.service(service).path("restart").asString("no");
            if (restart.equals("no") && stack.isOneShot(service)) {
                continue;
            }
            assertThat(restart).as("restart policy of %s", service).isIn("always", "unless-stopped", "on-failure");
            assertThat(stack.healthcheck(service))
                    .as("healthcheck of %s", service)
                    .isNotEmpty();
            assertThat(stack.memoryLimitMegabytes(service))
                    .as("memory limit of %s", service)
                    .isPositive();
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theAppsReportReadyOnTheirOwnPort(Variant variant) {
        var stack = variant.load();
        for (var app : APPS) {
            // the probe asks MANAGEMENT_SERVER_PORT, else SERVER_PORT: the port the app's actuator listens on
            assertThat(stack.healthcheck(app))
                    .as("healthcheck of %s", app)
                    .containsExactly("CMD", "probe", "/actuator/health/readiness");
            assertThat(stack.environment(app))
                    .as("%s names its actuator's port for the probe", app)
                    .containsKey("SERVER_PORT");
        }
    }

    @Test
    void theImageBuildsReadEverythingTheBuildNeeds() throws IOException {
        var project = COMPOSE_DIRECTORY.getParent().getParent();
        var ignored = Files.readAllLines(project.resolve(".dockerignore")).stream()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .map(pattern -> project.getFileSystem().getPathMatcher("glob:" + pattern))
                .toList();
        var needed = new ArrayList<Path>(List.of(
                Path.of("pom.xml"),
                Path.of(".mvn", "jvm.config"),
                Path.of("infra", "docker", "probe"),
                Path.of("infra", "docker", "token"),
                Path.of("infra", "src", "main", "java", "dev", "orderpipeline", "infra", "DevelopmentTokens.java")));
        var modules = Pattern.compile("<module>([^<]+)</module>")
                .matcher(Files.readString(project.resolve("pom.xml")))
                .results()
                .map(match -> match.group(1))
                .toList();
        assertThat(modules).contains("common-model", "order-api", "checkout-worker");
        for (var module : modules) {
            needed.add(Path.of(module, "pom.xml"));
            needed.add(Path.of(module, "src", "main"));
        }
        for (var path : needed) {
            assertThat(project.resolve(path)).exists();
            for (var prefix = path; prefix != null; prefix = prefix.getParent()) {
                var candidate = prefix;
                assertThat(ignored)
                        .as(".dockerignore leaves %s in the build context", path)
                        .noneMatch(matcher -> matcher.matches(candidate));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theApiVerifiesBearerTokensWithTheKeyTheLabSignsWith(Variant variant) {
        var environment = variant.load().environment("order-api");
        // without a key the API refuses to start; with the default (the variable unset), bin/lab token mints for it
        assertThat(environment.get(DevelopmentTokens.KEY_ENVIRONMENT_VARIABLE))
                .isEqualTo(DevelopmentTokens.DEFAULT_KEY);
        // an empty JWK set URI would make Spring Boot build a decoder without keys
        assertThat(environment).doesNotContainKey("SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWK_SET_URI");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theWorkerCanBeScaledBecauseNothingAboutItIsUnique(Variant variant) {
        var worker = variant.load().service(SCALED_SERVICE);
        assertThat(worker.has("container_name")).isFalse();
        assertThat(worker.has("hostname")).isFalse();
        for (var port : worker.path("ports").values()) {
            assertThat(publishedPort(port))
                    .as("host port of %s", SCALED_SERVICE)
                    .isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void prometheusScrapesEveryAppAndEveryWorkerReplicaOnItsPort(Variant variant) {
        var stack = variant.load();
        var prometheus = stack.prometheusConfiguration();
        var scraped = new LinkedHashSet<String>();
        for (var job : prometheus.path("scrape_configs").values()) {
            var jobName = job.path("job_name").asString();
            var path = job.path("metrics_path").asString("/metrics");
            for (var target : staticTargets(job)) {
                var host = target.substring(0, target.lastIndexOf(':'));
                var port = Integer.parseInt(target.substring(target.lastIndexOf(':') + 1));
                assertThat(stack.serviceNames())
                        .as("job %s scrapes %s", jobName, target)
                        .contains(host);
                assertThat(host)
                        .as("job %s: the scaled %s needs DNS discovery to see every replica", jobName, host)
                        .isNotEqualTo(SCALED_SERVICE);
                assertThat(stack.listeningPorts(host))
                        .as("job %s scrapes %s", jobName, target)
                        .contains(port);
                scraped.add(host);
                checkAppScrape(stack, jobName, host, port, path);
            }
            for (var discovery : job.path("dns_sd_configs").values()) {
                assertThat(discovery.path("type").asString("SRV")).isEqualTo("A");
                var port = discovery.path("port").asInt();
                for (var name : discovery.path("names").values()) {
                    var host = name.asString();
                    assertThat(stack.serviceNames())
                            .as("job %s resolves %s", jobName, host)
                            .contains(host);
                    assertThat(stack.listeningPorts(host))
                            .as("job %s scrapes %s", jobName, host)
                            .contains(port);
                    scraped.add(host);
                    checkAppScrape(stack, jobName, host, port, path);
                }
            }
        }
        assertThat(scraped).containsAll(APPS).contains("postgres-exporter");
    }

    private static void checkAppScrape(Stack stack, String job, String host, int port, String path) {
        if (APPS.contains(host)) {
            assertThat(port).as("job %s port of %s", job, host).isEqualTo(stack.managementPort(host));
            assertThat(path).as("job %s metrics path", job).isEqualTo(PROMETHEUS_PATH);
        }
    }

    @Test
    void grafanaProvisionsPrometheusAndDashboardsThatAllUseIt() throws IOException {
        var stack = Variant.SINGLE_NODE.load();
        var provisioning = stack.hostPathOf("grafana", "/etc/grafana/provisioning");

        var datasourceUids = new HashSet<String>();
        for (var file : yamlFiles(provisioning.resolve("datasources"))) {
            for (var datasource : readYaml(file).path("datasources").values()) {
                datasourceUids.add(datasource.path("uid").asString());
                var url = datasource.path("url").asString();
                var matcher = Pattern.compile("http://([^:/]+):(\\d+)").matcher(url);
                assertThat(matcher.matches()).as("data source url %s", url).isTrue();
                assertThat(stack.serviceNames()).contains(matcher.group(1));
                assertThat(stack.listeningPorts(matcher.group(1))).contains(Integer.parseInt(matcher.group(2)));
            }
        }
        assertThat(datasourceUids).isNotEmpty().doesNotContain("");

        var dashboards = new ArrayList<Path>();
        for (var file : yamlFiles(provisioning.resolve("dashboards"))) {
            for (var provider : readYaml(file).path("providers").values()) {
                var folder = stack.hostPathOf(
                        "grafana", provider.path("options").path("path").asString());
                assertThat(folder)
                        .as("dashboard folder of provider %s", provider.path("name"))
                        .isDirectory();
                try (Stream<Path> files = Files.list(folder)) {
                    files.filter(path -> path.toString().endsWith(".json")).forEach(dashboards::add);
                }
            }
        }
        assertThat(dashboards).isNotEmpty();

        var uids = new HashSet<String>();
        var titles = new HashSet<String>();
        for (var file : dashboards) {
            var dashboard = JSON.readTree(Files.readString(file));
            var name = file.getFileName().toString();
            assertThat(uids.add(dashboard.path("uid").asString()))
                    .as("uid of %s is unique", name)
                    .isTrue();
            assertThat(titles.add(dashboard.path("title").asString()))
                    .as("title of %s is unique", name)
                    .isTrue();
            assertThat(dashboard.path("uid").asString()).isNotBlank();
            assertThat(dashboard.path("title").asString()).isNotBlank();
            for (var variable : dashboard.path("templating").path("list").values()) {
                if (variable.has("datasource")) {
                    assertThat(variable.path("datasource").path("uid").asString())
                            .as("%s variable %s", name, variable.path("name"))
                            .isIn(datasourceUids);
                }
            }
            var panels = panels(dashboard);
            assertThat(panels).as("panels of %s", name).isNotEmpty();
            for (var panel : panels) {
                var title = name + " panel '" + panel.path("title").asString() + "'";
                assertThat(panel.path("datasource").path("uid").asString())
                        .as(title)
                        .isIn(datasourceUids);
                assertThat(panel.path("targets").values()).as(title).isNotEmpty();
                for (var target : panel.path("targets").values()) {
                    assertThat(target.path("datasource")
                                    .path("uid")
                                    .asString(datasourceUids.iterator().next()))
                            .as(title)
                            .isIn(datasourceUids);
                    assertThat(target.path("expr").asString()).as(title).isNotBlank();
                }
            }
        }

        assertThat(uids).contains("order-api", "checkout-worker", "postgresql", "jvm");

        var home = stack.environment("grafana").get("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH");
        if (home != null) {
            assertThat(stack.hostPathOf("grafana", home)).isRegularFile();
        }
    }

    @Test
    void theDashboardsChartWhatTheAppsAndTheExporterPublish() throws IOException {
        var stack = Variant.SINGLE_NODE.load();
        var expressions = new ArrayList<String>();
        try (Stream<Path> files = Files.list(stack.hostPathOf("grafana", "/etc/grafana/dashboards"))) {
            for (var file :
                    files.filter(path -> path.toString().endsWith(".json")).toList()) {
                for (var panel : panels(JSON.readTree(Files.readString(file)))) {
                    for (var target : panel.path("targets").values()) {
                        expressions.add(target.path("expr").asString());
                    }
                }
            }
        }
        var all = String.join("\n", expressions);
        assertThat(all)
                .contains(
                        "checkout_requests_seconds_count",
                        "checkout_requests_seconds_bucket",
                        "http_server_requests_seconds_count",
                        "http_server_requests_seconds_bucket",
                        "checkout_commands_total",
                        "checkout_batch_apply_seconds_bucket",
                        "checkout_batch_size_records_sum",
                        "kafka_consumer_fetch_manager_records_lag{",
                        "kafka_consumer_fetch_manager_records_lag_max",
                        "pg_stat_activity_count",
                        "pg_locks_count",
                        "process_cpu_usage",
                        "jvm_memory_used_bytes",
                        "hikaricp_connections_active");
        // the Kafka client writes topic names with '_' for '.' in its metric tags
        assertThat(all).doesNotContain("topic=\"checkout.commands\"");

        var jobs = stack.prometheusConfiguration().path("scrape_configs").values().stream()
                .map(job -> job.path("job_name").asString())
                .toList();
        var jobSelector = Pattern.compile("job=~?\"([^\"$]+)\"").matcher(all);
        while (jobSelector.find()) {
            assertThat(jobs)
                    .as("a dashboard selects job %s", jobSelector.group(1))
                    .contains(jobSelector.group(1));
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void kafkaClientsBootstrapFromEveryBrokersInternalListener(Variant variant) {
        var stack = variant.load();
        var brokers = stack.brokers();
        assertThat(brokers).hasSize(variant.brokers);

        var internal = new TreeMap<String, Integer>();
        for (var broker : brokers) {
            var env = stack.environment(broker);
            var listenerName = env.get("KAFKA_INTER_BROKER_LISTENER_NAME");
            var port = listenerPort(env.get("KAFKA_LISTENERS"), listenerName);
            assertThat(listenerAddress(env.get("KAFKA_ADVERTISED_LISTENERS"), listenerName))
                    .as("%s advertises its internal listener under its service name", broker)
                    .isEqualTo(broker + ":" + port);
            assertThat(String.join(" ", stack.healthcheck(broker)))
                    .as("healthcheck of %s", broker)
                    .contains("localhost:" + port);
            internal.put(broker, port);
        }
        var expected = internal.entrySet().stream()
                .map(broker -> broker.getKey() + ":" + broker.getValue())
                .toList();

        var clients = new LinkedHashMap<String, String>();
        for (var app : APPS) {
            clients.put(app, stack.environment(app).get("SPRING_KAFKA_BOOTSTRAP_SERVERS"));
        }
        clients.put("kafka-ui", stack.environment("kafka-ui").get("KAFKA_CLUSTERS_0_BOOTSTRAPSERVERS"));
        assertThat(stack.environment("kafka-ui").get("KAFKA_CLUSTERS_0_NAME")).isNotBlank();
        clients.forEach((client, servers) -> {
            assertThat(servers).as("bootstrap servers of %s", client).isNotNull();
            assertThat(List.of(servers.split(",")))
                    .as("bootstrap servers of %s", client)
                    .containsExactlyInAnyOrderElementsOf(expected);
            for (var broker : brokers) {
                assertThat(stack.dependencies(client))
                        .as("%s waits for %s", client, broker)
                        .containsEntry(broker, "service_healthy");
            }
        });
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theBrokersFormOneQuorumAndReplicateAsManyTimesAsThereAreBrokers(Variant variant) {
        var stack = variant.load();
        var brokers = stack.brokers();
        var replicas = String.valueOf(variant.brokers);
        var minInSync = String.valueOf(variant.minInSyncReplicas);

        var nodeIds = new LinkedHashMap<String, String>();
        var volumes = new HashSet<String>();
        var hostPorts = new HashSet<String>();
        for (var broker : brokers) {
            var env = stack.environment(broker);
            nodeIds.put(env.get("KAFKA_NODE_ID"), broker);
            assertThat(env)
                    .as("configuration of %s", broker)
                    .containsEntry("KAFKA_PROCESS_ROLES", "broker,controller")
                    .containsEntry("KAFKA_DEFAULT_REPLICATION_FACTOR", replicas)
                    .containsEntry("KAFKA_MIN_INSYNC_REPLICAS", minInSync)
                    .containsEntry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", replicas)
                    .containsEntry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", replicas)
                    .containsEntry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", minInSync)
                    .containsEntry("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", replicas)
                    .containsEntry("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR", minInSync)
                    .containsEntry("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                    .containsEntry(
                            "CLUSTER_ID", stack.environment(brokers.getFirst()).get("CLUSTER_ID"))
                    .containsEntry(
                            "KAFKA_CONTROLLER_QUORUM_VOTERS",
                            stack.environment(brokers.getFirst()).get("KAFKA_CONTROLLER_QUORUM_VOTERS"));
            assertThat(stack.service(broker).path("image").asString())
                    .isEqualTo(stack.service(brokers.getFirst()).path("image").asString())
                    .startsWith("apache/kafka:4.1.");

            var data = stack.mounts(broker).stream()
                    .filter(mount -> mount.target().equals(env.get("KAFKA_LOG_DIRS")))
                    .toList();
            assertThat(data).as("data volume of %s", broker).hasSize(1);
            assertThat(volumes.add(data.getFirst().source()))
                    .as("%s has a data volume of its own", broker)
                    .isTrue();

            // tools on the host reach each broker at the address it advertises for them
            var external = listenerAddress(env.get("KAFKA_ADVERTISED_LISTENERS"), "EXTERNAL");
            assertThat(external).startsWith("localhost:");
            var externalPort = external.substring("localhost:".length());
            assertThat(stack.service(broker).path("ports").values())
                    .extracting(port -> publishedPort(port).orElse(""))
                    .contains(externalPort);
            assertThat(hostPorts.add(externalPort)).isTrue();

            assertThat(heapMegabytes(env.get("KAFKA_HEAP_OPTS")))
                    .as("heap of %s fits in its memory limit", broker)
                    .isLessThan(stack.memoryLimitMegabytes(broker));
        }
        assertThat(nodeIds).as("node ids").hasSize(variant.brokers);

        var voters = stack.environment(brokers.getFirst()).get("KAFKA_CONTROLLER_QUORUM_VOTERS");
        var voterIds = new HashSet<String>();
        for (var voter : voters.split(",")) {
            var id = voter.substring(0, voter.indexOf('@'));
            var address = voter.substring(voter.indexOf('@') + 1);
            var host = address.substring(0, address.indexOf(':'));
            assertThat(nodeIds).as("voter %s", voter).containsEntry(id, host);
            var env = stack.environment(host);
            assertThat(address)
                    .as("voter %s is the controller listener of %s", voter, host)
                    .isEqualTo(host + ":"
                            + listenerPort(env.get("KAFKA_LISTENERS"), env.get("KAFKA_CONTROLLER_LISTENER_NAMES")));
            voterIds.add(id);
        }
        assertThat(voterIds).containsExactlyInAnyOrderElementsOf(nodeIds.keySet());

        for (var app : APPS) {
            // an app refuses to start on a topic of fewer replicas than there are brokers (1, the default, on one)
            assertThat(stack.environment(app).getOrDefault("ORDERPIPELINE_TOPICS_MIN_REPLICATION_FACTOR", "1"))
                    .as("replication floor of %s", app)
                    .isEqualTo(replicas);
            assertThat(stack.environment(app))
                    .as("topics declared by %s", app)
                    .containsEntry("ORDERPIPELINE_TOPICS_REPLICATION_FACTOR", replicas)
                    .containsEntry(
                            "ORDERPIPELINE_TOPICS_COMMAND_PARTITIONS",
                            stack.environment(APPS.getFirst()).get("ORDERPIPELINE_TOPICS_COMMAND_PARTITIONS"));
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theAppsAndTheExporterReachTheDatabaseByServiceName(Variant variant) {
        var stack = variant.load();
        var postgres = stack.serviceNames().stream()
                .filter(service ->
                        stack.service(service).path("image").asString().startsWith("postgres:"))
                .toList();
        assertThat(postgres).hasSize(1);
        var server = postgres.getFirst();
        assertThat(stack.service(server).path("image").asString()).isEqualTo("postgres:17");
        var database = stack.environment(server);
        var port = 5432;
        for (var app : APPS) {
            var env = stack.environment(app);
            var url = JDBC_URL.matcher(env.get("SPRING_DATASOURCE_URL"));
            assertThat(url.matches()).as("JDBC URL of %s", app).isTrue();
            assertThat(url.group("host")).isEqualTo(server);
            assertThat(Integer.parseInt(url.group("port"))).isEqualTo(port);
            assertThat(url.group("database")).isEqualTo(database.get("POSTGRES_DB"));
            assertThat(env)
                    .containsEntry("SPRING_DATASOURCE_USERNAME", database.get("POSTGRES_USER"))
                    .containsEntry("SPRING_DATASOURCE_PASSWORD", database.get("POSTGRES_PASSWORD"));
            assertThat(stack.dependencies(app)).containsEntry(server, "service_healthy");
        }
        var exporter = stack.environment("postgres-exporter");
        assertThat(exporter.get("DATA_SOURCE_URI"))
                .startsWith(server + ":" + port + "/" + database.get("POSTGRES_DB") + "?");
        assertThat(exporter)
                .containsEntry("DATA_SOURCE_USER", database.get("POSTGRES_USER"))
                .containsEntry("DATA_SOURCE_PASS", database.get("POSTGRES_PASSWORD"));
        assertThat(String.join(" ", stack.healthcheck(server))).contains("pg_isready");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theSchemaIsMigratedOnceBeforeTheAppsWhoseOwnMigrationIsOff(Variant variant) {
        var stack = variant.load();
        var migrate = "migrate";
        var command = stack.service(migrate).path("command").values().stream()
                .map(JsonNode::asString)
                .toList();
        var main = "dev.orderpipeline.schema.Migrate";
        assertThat(command).as("command of %s", migrate).contains(main);
        assertThat(Path.of("..", "common-model", "src", "main", "java").resolve(main.replace('.', '/') + ".java"))
                .as("the main class %s runs", migrate)
                .exists();
        // Migrate <jdbc-url> [user], the password from PGPASSWORD
        var arguments = command.subList(command.indexOf(main) + 1, command.size());
        var app = APPS.getFirst();
        assertThat(arguments)
                .containsExactly(
                        stack.environment(app).get("SPRING_DATASOURCE_URL"),
                        stack.environment(app).get("SPRING_DATASOURCE_USERNAME"));
        assertThat(stack.environment(migrate))
                .containsEntry("PGPASSWORD", stack.environment(app).get("SPRING_DATASOURCE_PASSWORD"));
        assertThat(stack.dependencies(migrate)).containsEntry("postgres", "service_healthy");
        assertThat(stack.service(migrate).path("restart").asString("no"))
                .as("%s runs once per up", migrate)
                .isEqualTo("no");
        for (var each : APPS) {
            assertThat(stack.dependencies(each))
                    .as("%s starts once the schema is migrated", each)
                    .containsEntry(migrate, "service_completed_successfully");
            assertThat(stack.environment(each))
                    .as("%s leaves the migration to %s", each, migrate)
                    .containsEntry("SPRING_FLYWAY_ENABLED", "false");
        }
    }

    // ---- reading the files

    private static JsonNode readYaml(Path file) {
        try {
            var options = new LoaderOptions();
            // Compose refuses a key given twice; so does this reader
            options.setAllowDuplicateKeys(false);
            Object yaml = new Yaml(new SafeConstructor(options)).load(Files.readString(file));
            return JSON.valueToTree(interpolate(yaml, file));
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** Replaces variables the way Compose does when none is set: every one needs a default. */
    private static @Nullable Object interpolate(@Nullable Object value, Path file) {
        if (value instanceof String text) {
            Matcher matcher = VARIABLE.matcher(text);
            var result = new StringBuilder();
            while (matcher.find()) {
                String replacement;
                if (matcher.group().equals("$$")) {
                    replacement = "$";
                } else if (matcher.group("default") != null) {
                    replacement = matcher.group("default");
                } else {
                    return fail("%s: %s has no default, so the stack would need a .env file", file, matcher.group());
                }
                matcher.appendReplacement(result, Matcher.quoteReplacement(replacement));
            }
            matcher.appendTail(result);
            return result.toString();
        }
        if (value instanceof Map<?, ?> map) {
            var copy = new LinkedHashMap<String, @Nullable Object>();
            map.forEach((key, entry) -> copy.put(String.valueOf(key), interpolate(entry, file)));
            return copy;
        }
        if (value instanceof List<?> list) {
            var copy = new ArrayList<@Nullable Object>();
            list.forEach(entry -> copy.add(interpolate(entry, file)));
            return copy;
        }
        return value;
    }

    /**
     * Lays an override file over a model as {@code docker compose -f base -f override} does: mappings merge key by key,
     * service volumes merge by their path in the container, ports and exposed ports add up, other lists are replaced.
     */
    private static JsonNode merge(JsonNode base, JsonNode override, String path) {
        if (base instanceof ObjectNode object && override.isObject()) {
            var merged = object.deepCopy();
            for (var property : override.properties()) {
                var key = property.getKey();
                var existing = base.get(key);
                merged.set(
                        key,
                        existing == null
                                ? property.getValue().deepCopy()
                                : merge(existing, property.getValue(), path + "/" + key));
            }
            return merged;
        }
        if (base.isArray() && override.isArray()) {
            if (path.matches("/services/[^/]+/volumes")) {
                var byTarget = new LinkedHashMap<String, JsonNode>();
                Stream.concat(base.values().stream(), override.values().stream())
                        .forEach(volume -> byTarget.put(Mount.of(volume).target(), volume));
                return arrayOf(byTarget.values());
            }
            if (path.matches("/services/[^/]+/(ports|expose)")) {
                var union = new LinkedHashSet<JsonNode>(base.values());
                union.addAll(override.values());
                return arrayOf(union);
            }
        }
        return override.deepCopy();
    }

    private static ArrayNode arrayOf(Iterable<JsonNode> values) {
        var array = JSON.createArrayNode();
        values.forEach(array::add);
        return array;
    }

    private static List<Path> yamlFiles(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.toString().matches(".*\\.ya?ml"))
                    .sorted()
                    .toList();
        }
    }

    /** Every panel of a dashboard, rows left out and the panels of collapsed rows included. */
    private static List<JsonNode> panels(JsonNode dashboard) {
        var panels = new ArrayList<JsonNode>();
        for (var panel : dashboard.path("panels").values()) {
            if (panel.path("type").asString().equals("row")) {
                panels.addAll(panel.path("panels").values());
            } else {
                panels.add(panel);
            }
        }
        return panels;
    }

    private static List<String> staticTargets(JsonNode job) {
        var targets = new ArrayList<String>();
        for (var config : job.path("static_configs").values()) {
            config.path("targets").values().forEach(target -> targets.add(target.asString()));
        }
        return targets;
    }

    /** The port of a named listener in a {@code NAME://host:port,...} list. */
    private static int listenerPort(String listeners, String name) {
        var address = listenerAddress(listeners, name);
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    private static String listenerAddress(String listeners, String name) {
        return Stream.of(listeners.split(","))
                .filter(listener -> listener.startsWith(name + "://"))
                .map(listener -> listener.substring(name.length() + 3))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no listener " + name + " in " + listeners));
    }

    /** The host port of a {@code ports} entry, empty when Docker picks one. */
    private static Optional<String> publishedPort(JsonNode port) {
        if (port.isObject()) {
            return Optional.ofNullable(port.get("published")).map(JsonNode::asString);
        }
        var parts = port.asString().split(":");
        return parts.length == 1 ? Optional.empty() : Optional.of(parts[parts.length - 2]);
    }

    private static int containerPort(JsonNode port) {
        if (port.isObject()) {
            return port.path("target").asInt();
        }
        var parts = port.asString().split(":");
        return Integer.parseInt(parts[parts.length - 1].replaceAll("/.*", ""));
    }

    private static long heapMegabytes(String options) {
        var matcher = HEAP.matcher(options);
        assertThat(matcher.find()).as("-Xmx in %s", options).isTrue();
        return toMegabytes(Long.parseLong(matcher.group(1)), matcher.group(2));
    }

    private static long toMegabytes(long amount, String unit) {
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "k", "kb" -> amount / 1024;
            case "m", "mb" -> amount;
            case "g", "gb" -> amount * 1024;
            default -> throw new AssertionError("unit " + unit);
        };
    }

    /** A mount of a service: a host path ({@code bind}) or a named volume. */
    record Mount(String source, String target, boolean bind) {

        static Mount of(JsonNode volume) {
            if (volume.isObject()) {
                return new Mount(
                        volume.path("source").asString(),
                        volume.path("target").asString(),
                        volume.path("type").asString().equals("bind"));
            }
            var parts = volume.asString().split(":");
            assertThat(parts.length)
                    .as("volume %s names a source and a target", volume)
                    .isGreaterThanOrEqualTo(2);
            var source = parts[0];
            return new Mount(source, parts[1], source.startsWith(".") || source.startsWith("/"));
        }
    }

    /** A merged Compose model. */
    record Stack(JsonNode model) {

        Set<String> serviceNames() {
            return new LinkedHashSet<>(model.path("services").propertyNames());
        }

        JsonNode service(String name) {
            var service = model.path("services").path(name);
            assertThat(service.isObject()).as("service %s", name).isTrue();
            return service;
        }

        List<String> builtServices() {
            return serviceNames().stream()
                    .filter(name -> service(name).has("build"))
                    .toList();
        }

        List<String> brokers() {
            return serviceNames().stream()
                    .filter(name -> environment(name).containsKey("KAFKA_PROCESS_ROLES"))
                    .sorted()
                    .toList();
        }

        Map<String, String> environment(String name) {
            var environment = new LinkedHashMap<String, String>();
            var declared = service(name).path("environment");
            if (declared.isObject()) {
                declared.properties()
                        .forEach(entry ->
                                environment.put(entry.getKey(), entry.getValue().asString()));
            } else {
                for (var entry : declared.values()) {
                    var text = entry.asString();
                    var equals = text.indexOf('=');
                    environment.put(
                            equals < 0 ? text : text.substring(0, equals),
                            equals < 0 ? "" : text.substring(equals + 1));
                }
            }
            return environment;
        }

        /** The service's dependencies and the condition it waits for on each. */
        Map<String, String> dependencies(String name) {
            var dependencies = new LinkedHashMap<String, String>();
            var declared = service(name).path("depends_on");
            if (declared.isArray()) {
                declared.values().forEach(dependency -> dependencies.put(dependency.asString(), "service_started"));
            } else {
                declared.properties()
                        .forEach(entry -> dependencies.put(
                                entry.getKey(),
                                entry.getValue().path("condition").asString("service_started")));
            }
            return dependencies;
        }

        /** A service others wait for until it has completed: it runs once and needs no healthcheck. */
        boolean isOneShot(String name) {
            return serviceNames().stream()
                    .anyMatch(other -> "service_completed_successfully"
                            .equals(dependencies(other).get(name)));
        }

        List<String> healthcheck(String name) {
            var test = service(name).path("healthcheck").path("test");
            var words = new ArrayList<String>();
            if (test.isArray()) {
                test.values().forEach(word -> words.add(word.asString()));
            } else if (test.isString()) {
                words.add(test.asString());
            }
            if (!words.isEmpty() && words.getFirst().equals("NONE")) {
                return List.of();
            }
            return words;
        }

        long memoryLimitMegabytes(String name) {
            var service = service(name);
            var limit = service.path("deploy").path("resources").path("limits").path("memory");
            if (limit.isMissingNode()) {
                limit = service.path("mem_limit");
            }
            var matcher = Pattern.compile("(\\d+)([kKmMgG][bB]?)").matcher(limit.asString(""));
            return matcher.matches() ? toMegabytes(Long.parseLong(matcher.group(1)), matcher.group(2)) : 0;
        }

        List<Mount> mounts(String name) {
            return service(name).path("volumes").values().stream()
                    .map(Mount::of)
                    .toList();
        }

        /** The host path mounted at (or above) a path in the service's container. */
        Path hostPathOf(String name, String containerPath) {
            return mounts(name).stream()
                    .filter(Mount::bind)
                    .filter(mount ->
                            containerPath.equals(mount.target()) || containerPath.startsWith(mount.target() + "/"))
                    .max((left, right) -> Integer.compare(
                            left.target().length(), right.target().length()))
                    .map(mount -> COMPOSE_DIRECTORY
                            .resolve(mount.source())
                            .resolve(containerPath
                                    .substring(mount.target().length())
                                    .replaceFirst("^/", ""))
                            .normalize())
                    .orElseThrow(() -> new AssertionError(name + " mounts nothing at " + containerPath));
        }

        /** The HTTP port of a Spring Boot app: SERVER_PORT, else what its application.yml sets. */
        int serverPort(String app) {
            var port = environment(app).get("SERVER_PORT");
            return port == null ? DEFAULT_APP_PORTS.get(app) : Integer.parseInt(port);
        }

        /** The actuator's port of a Spring Boot app: MANAGEMENT_SERVER_PORT, else application.yml's, else its server port. */
        int managementPort(String app) {
            var port = environment(app).get("MANAGEMENT_SERVER_PORT");
            if (port != null) {
                return Integer.parseInt(port);
            }
            return DEFAULT_MANAGEMENT_PORTS.getOrDefault(app, serverPort(app));
        }

        /** The ports a service listens on inside the network: published, exposed, or an app's server and actuator ports. */
        Set<Integer> listeningPorts(String name) {
            var ports = new HashSet<Integer>();
            service(name).path("ports").values().forEach(port -> ports.add(containerPort(port)));
            service(name).path("expose").values().forEach(port -> ports.add(Integer.parseInt(port.asString())));
            if (APPS.contains(name)) {
                ports.add(serverPort(name));
                ports.add(managementPort(name));
            }
            return ports;
        }

        /** prometheus.yml, found where the prometheus service's --config.file says and its mounts put it. */
        JsonNode prometheusConfiguration() {
            var configFile = service("prometheus").path("command").values().stream()
                    .map(JsonNode::asString)
                    .filter(argument -> argument.startsWith("--config.file="))
                    .map(argument -> argument.substring("--config.file=".length()))
                    .findFirst()
                    .orElse("/etc/prometheus/prometheus.yml");
            return readYaml(hostPathOf("prometheus", configFile));
        }
    }
}
