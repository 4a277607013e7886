package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.MicrometerConsumerListener;
import org.springframework.kafka.core.MicrometerProducerListener;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;

/**
 * What an operator sees of a running worker over HTTP: the Prometheus scrape the dashboards are built on, and the
 * health probes. A context of its own (a web server, a broker of its own), so the counters count this test's
 * commands only.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WorkerMetricsTests extends WorkerIntegrationTest {

    /**
     * How often the Kafka clients' meters are looked over here: Micrometer binds the meters of a partition or a topic
     * only when it next looks over the client's metrics, once a minute by default, which a test would wait out.
     */
    private static final Duration CLIENT_METRICS_REFRESH = Duration.ofSeconds(1);

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)$");

    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** The steps {@link CheckoutMetrics#timeStep} is given. */
    private static final Set<String> STEPS = Set.of(
            "lock_orders",
            "find_recorded",
            "lock_stock",
            "take_stock",
            "statuses",
            "payments",
            "outcomes",
            "commit",
            "results",
            "stock",
            "dead_letters");

    @LocalServerPort
    int port;

    private RestClient http;

    @BeforeEach
    void connect() {
        http = RestClient.create("http://127.0.0.1:" + port);
    }

    @Test
    void exposesTheWorkersMetersAndTheKafkaClientsMetersWithoutIdsInLabels() {
        var product = createProduct(1, "4.00");
        var orders = createOrders(product, 2, 1);
        var first = commandFor(orders.get(0));
        publish(List.of(first, commandFor(orders.get(1))));
        awaitDecided(orders);
        publish(List.of(first));
        publishRaw(product.toString(), new byte[] {0, (byte) 0xff}, "metrics-poison", null);

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(commandCounts(scrape()))
                        .isEqualTo(Map.of("completed", 1.0, "rejected", 1.0, "duplicate", 1.0, "dead_lettered", 1.0)));

        var samples = scrape();
        assertThat(named(samples, "checkout_batch_apply_seconds_bucket"))
                .as("the apply timer publishes histogram buckets for quantiles across workers")
                .hasSizeGreaterThan(10)
                .allSatisfy(sample -> assertThat(sample.labels()).containsKey("le"));
        assertThat(value(samples, "checkout_batch_apply_seconds_count")).isGreaterThanOrEqualTo(2);
        assertThat(value(samples, "checkout_batch_size_records_count")).isGreaterThanOrEqualTo(2);
        // four records were polled: two commands, the redelivered one and the poison
        assertThat(value(samples, "checkout_batch_size_records_sum")).isGreaterThanOrEqualTo(4);
        var steps = named(samples, "checkout_batch_step_seconds_count").stream()
                .map(sample -> sample.labels().get("step"))
                .collect(Collectors.toSet());
        assertThat(steps).contains("commit", "results", "dead_letters").isSubsetOf(STEPS);

        assertThat(named(samples, "spring_kafka_listener_seconds_count"))
                .as("the listener observation, timed per poll")
                .isNotEmpty();
        assertThat(value(samples, "hikaricp_connections_active")).isGreaterThanOrEqualTo(0);
        assertThat(named(samples, "jvm_memory_used_bytes")).isNotEmpty();
        assertThat(named(samples, "process_cpu_usage")).isNotEmpty();

        // the Kafka client meters of partitions and topics are bound when the client's metrics are next looked
        // over (FastClientMetrics)
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    var scraped = scrape();
                    var lag = named(scraped, "kafka_consumer_fetch_manager_records_lag").stream()
                            .filter(sample -> Topics.CHECKOUT_COMMANDS.equals(
                                    sample.labels().get("topic")))
                            .toList();
                    assertThat(lag)
                            .as("lag per partition of the commands topic, all caught up")
                            .isNotEmpty()
                            .allSatisfy(sample -> {
                                assertThat(sample.labels()).containsKey("partition");
                                assertThat(sample.value()).isZero();
                            });
                    assertThat(named(scraped, "kafka_consumer_fetch_manager_records_lag_max"))
                            .anySatisfy(sample -> assertThat(sample.labels())
                                    .containsEntry("topic", Topics.CHECKOUT_COMMANDS)
                                    .containsKey("partition"));
                    assertThat(named(scraped, "kafka_producer_topic_record_send_total"))
                            .anySatisfy(sample -> {
                                assertThat(sample.labels()).containsEntry("topic", Topics.CHECKOUT_RESULTS);
                                assertThat(sample.value()).isGreaterThanOrEqualTo(3);
                            });
                });

        assertThat(scrape())
                .as("no id of a command, order or product, nor any other UUID, is a label value")
                .allSatisfy(sample -> assertThat(sample.labels().values())
                        .noneMatch(label -> UUID_TEXT.matcher(label).find()));
    }

    @Test
    void isReadyOnlyWithItsDatabaseAndLiveOnItsOwnState() {
        var readiness = health("/actuator/health/readiness");
        assertThat(readiness.path("status").asString()).isEqualTo("UP");
        assertThat(readiness.path("components").propertyNames())
                .containsExactlyInAnyOrder("readinessState", "db", "databaseWrites");
        assertThat(readiness
                        .path("components")
                        .path("databaseWrites")
                        .path("status")
                        .asString())
                .isEqualTo("UP");

        var liveness = health("/actuator/health/liveness");
        assertThat(liveness.path("status").asString()).isEqualTo("UP");
        assertThat(liveness.path("components").propertyNames()).containsExactly("livenessState");
    }

    private JsonNode health(String path) {
        return JSON.readTree(http.get().uri(path).retrieve().body(String.class));
    }

    private List<Sample> scrape() {
        var text = http.get().uri("/actuator/prometheus").retrieve().body(String.class);
        assertThat(text).isNotNull();
        return text.lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(WorkerMetricsTests::sample)
                .toList();
    }

    private static Sample sample(String line) {
        var matcher = SAMPLE.matcher(line);
        assertThat(matcher.matches()).as("a sample line: %s", line).isTrue();
        var labels = new HashMap<String, String>();
        var labelText = matcher.group(2);
        if (labelText != null) {
            var label = LABEL.matcher(labelText);
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
        }
        return new Sample(matcher.group(1), Map.copyOf(labels), Double.parseDouble(matcher.group(3)));
    }

    private static List<Sample> named(List<Sample> samples, String name) {
        return samples.stream().filter(sample -> sample.name().equals(name)).toList();
    }

    private static double value(List<Sample> samples, String name) {
        var found = named(samples, name);
        assertThat(found).as(name).hasSize(1);
        return found.getFirst().value();
    }

    private static Map<String, Double> commandCounts(List<Sample> samples) {
        return named(samples, "checkout_commands_total").stream()
                .collect(Collectors.toMap(sample -> sample.labels().get("outcome"), Sample::value));
    }

    /** One line of the Prometheus text format. */
    record Sample(String name, Map<String, String> labels, double value) {}

    /**
     * The Kafka clients' meters as Boot binds them (one listener per client factory), looked over every {@link
     * #CLIENT_METRICS_REFRESH} instead of every minute.
     */
    @TestConfiguration(proxyBeanMethods = false)
    static class FastClientMetrics {

        @Bean
        static ThreadPoolTaskScheduler clientMetricsScheduler() {
            var scheduler = new ThreadPoolTaskScheduler();
            scheduler.setThreadNamePrefix("client-metrics-");
            return scheduler;
        }

        @Bean
        static BeanPostProcessor fastClientMetrics(
                ObjectProvider<MeterRegistry> registry, ObjectProvider<ThreadPoolTaskScheduler> scheduler) {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String beanName) {
                    if (bean instanceof DefaultKafkaConsumerFactory<?, ?> consumers) {
                        refreshOften(consumers, registry.getObject(), scheduler.getObject());
                    } else if (bean instanceof DefaultKafkaProducerFactory<?, ?> producers) {
                        refreshOften(producers, registry.getObject(), scheduler.getObject());
                    }
                    return bean;
                }
            };
        }

        private static <K, V> void refreshOften(
                DefaultKafkaConsumerFactory<K, V> factory, MeterRegistry registry, TaskScheduler scheduler) {
            for (var listener : List.copyOf(factory.getListeners())) {
                if (listener instanceof MicrometerConsumerListener<K, V>) {
                    factory.removeListener(listener);
                    factory.addListener(new MicrometerConsumerListener<K, V>(registry, scheduler) {
                        @Override
                        protected MeterBinder createClientMetrics(Consumer<K, V> client, List<Tag> tags) {
                            return new KafkaClientMetrics(client, tags, this.scheduler, CLIENT_METRICS_REFRESH);
                        }
                    });
                }
            }
        }

        private static <K, V> void refreshOften(
                DefaultKafkaProducerFactory<K, V> factory, MeterRegistry registry, TaskScheduler scheduler) {
            for (var listener : List.copyOf(factory.getListeners())) {
                if (listener instanceof MicrometerProducerListener<K, V>) {
                    factory.removeListener(listener);
                    factory.addListener(new MicrometerProducerListener<K, V>(registry, scheduler) {
                        @Override
                        protected MeterBinder createClientMetrics(Producer<K, V> client, List<Tag> tags) {
                            return new KafkaClientMetrics(client, tags, this.scheduler, CLIENT_METRICS_REFRESH);
                        }
                    });
                }
            }
        }
    }
}
