package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CheckoutCommand;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.test.context.TestPropertySource;

/**
 * A rough figure, not an assertion: how fast one worker thread drains a backlog of commands for one hot product, and
 * where a poll's time goes. Off by default; run it by hand with
 * {@code mvn -pl checkout-worker verify -Dtest=DrainRateTests -Ddrain-rate=true [-Ddrain-rate.commands=1000000]}.
 * Worker settings can be varied on the same command line, e.g. {@code -Dorderpipeline.worker.max-poll-records=500}.
 *
 * <p>The broker runs in the test's JVM, so the figure is a lower bound of what a worker process of its own does.
 */
@EnabledIfSystemProperty(named = "drain-rate", matches = "true")
@TestPropertySource(properties = "spring.kafka.listener.auto-startup=false")
class DrainRateTests extends WorkerIntegrationTest {

    private static final Logger log = LoggerFactory.getLogger(DrainRateTests.class);

    /** Orders are created and their commands published a chunk at a time, to keep the test's own heap small. */
    private static final int CHUNK = 50_000;

    private static final int INITIAL_STOCK = 100_000_000;

    /** USER_HZ, which Linux fixes at 100 on the common architectures. */
    private static final long CLOCK_TICKS_PER_SECOND = 100;

    private static final String STEP_TIMER = "checkout.batch.step";
    private static final String APPLY_TIMER = "checkout.batch.apply";
    private static final String LISTENER_TIMER = "checkout.batch.listener";

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @Autowired
    MeterRegistry meters;

    @Test
    void drainsABacklogOfOneHotProduct() {
        var commands = Integer.getInteger("drain-rate.commands", 200_000);
        var product = createProduct(INITIAL_STOCK, "1.00");
        var publishStarted = System.nanoTime();
        for (int from = 0; from < commands; from += CHUNK) {
            publish(commandsForNewOrders(product, Math.min(CHUNK, commands - from)));
        }
        log.info("Published {} commands in {} ms", commands, (System.nanoTime() - publishStarted) / 1_000_000);

        var backendsBefore = backendCpuMillis();
        var jvmCpuBefore = jvmCpuMillis();
        var stepsBefore = stepTotals();
        var applyBefore = totalNanos(APPLY_TIMER);
        var listenerBefore = totalNanos(LISTENER_TIMER);
        var pollsBefore = meters.get("checkout.batch.size").summary().count();
        var started = System.nanoTime();
        listeners.getListenerContainer(CheckoutCommandListener.ID).start();
        await().atMost(Duration.ofMinutes(30))
                .pollInterval(Duration.ofMillis(200))
                // every command completes, and the stock moves in the transaction that records the outcomes; a
                // one-row read, where counting the decided commands would steal the database's time
                .until(() -> stock(product) == INITIAL_STOCK - commands);
        var seconds = (System.nanoTime() - started) / 1e9;
        var jvmCpu = jvmCpuMillis() - jvmCpuBefore;
        var backendsAfter = backendCpuMillis();
        var backendCpu = backendsAfter.entrySet().stream()
                .mapToLong(backend -> backend.getValue() - backendsBefore.getOrDefault(backend.getKey(), 0L))
                .sum();

        var span = jdbc.sql("""
                        SELECT min(pc.processed_at) AS first, max(pc.processed_at) AS last
                        FROM processed_command pc JOIN orders o ON o.id = pc.order_id
                        WHERE o.product_id = :productId
                        """)
                .param("productId", product)
                .query((rs, row) -> Duration.between(
                        rs.getObject("first", OffsetDateTime.class), rs.getObject("last", OffsetDateTime.class)))
                .single();
        var polls = meters.get("checkout.batch.size").summary().count() - pollsBefore;
        var perPoll = new TreeMap<String, Double>();
        stepTotals()
                .forEach((step, total) ->
                        perPoll.put(step, (total - stepsBefore.getOrDefault(step, 0.0)) / 1e6 / polls));
        var applyMillis = (totalNanos(APPLY_TIMER) - applyBefore) / 1e6 / polls;
        var listenerMillis = (totalNanos(LISTENER_TIMER) - listenerBefore) / 1e6 / polls;
        // every transaction but the last starts a cycle inside the span
        var cycleMillis = span.toMillis() / (double) Math.max(1, polls - 1);
        log.info(
                "Drained {} commands in {} s from container start: {} commands/s; {} commands/s between the first and"
                        + " last batch transaction ({} ms); {} polls of {} records on average",
                commands,
                String.format("%.1f", seconds),
                Math.round(commands / seconds),
                Math.round(commands / Math.max(0.001, span.toMillis() / 1000.0)),
                span.toMillis(),
                polls,
                Math.round(commands / (double) polls));
        log.info(
                "Per poll, mean ms: {}; apply {}, listener {}, cycle {} (the rest, {}, is the container: poll,"
                        + " deserialize, offset commit)",
                perPoll.entrySet().stream()
                        .map(step -> step.getKey() + " " + String.format("%.2f", step.getValue()))
                        .collect(Collectors.joining(", ")),
                String.format("%.2f", applyMillis),
                String.format("%.2f", listenerMillis),
                String.format("%.2f", cycleMillis),
                String.format("%.2f", cycleMillis - listenerMillis));
        log.info(
                "CPU per 1,000 commands: {} ms in this JVM (worker, broker and test), {} ms in the database backends{}",
                jvmCpu * 1000 / commands,
                backendsAfter.isEmpty() ? "?" : backendCpu * 1000 / commands,
                backendsAfter.isEmpty() ? " (not readable: the database is not a local Linux process)" : "");
        assertThat(stock(product)).isEqualTo(INITIAL_STOCK - commands);
    }

    private static long jvmCpuMillis() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean hotspot
                ? hotspot.getProcessCpuTime() / 1_000_000
                : 0;
    }

    /**
     * CPU time so far of each backend serving this database, from {@code /proc} when the server is a local Linux
     * process; empty otherwise. Load-independent, unlike the rates: what the same work costs the database.
     */
    private Map<Integer, Long> backendCpuMillis() {
        var pids = jdbc.sql("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
                .query(Integer.class)
                .list();
        var cpu = new HashMap<Integer, Long>();
        for (var pid : pids) {
            var stat = Path.of("/proc", pid.toString(), "stat");
            try {
                var text = Files.readString(stat);
                // after the command name in parentheses: state is field 3, utime 14 and stime 15, in clock ticks
                var fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
                var ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                cpu.put(pid, ticks * 1000 / CLOCK_TICKS_PER_SECOND);
            } catch (IOException | RuntimeException ex) {
                log.debug("No CPU time for backend {}: {}", pid, ex.toString());
            }
        }
        return cpu;
    }

    private List<CheckoutCommand> commandsForNewOrders(UUID product, int count) {
        var orders = IntStream.range(0, count).mapToObj(i -> UUID.randomUUID()).toList();
        jdbc.sql("""
                        INSERT INTO orders (id, user_id, product_id, quantity)
                        SELECT id, 'user-' || id, :productId, 1 FROM unnest(:ids) AS t(id)
                        """)
                .param("ids", orders.toArray(UUID[]::new))
                .param("productId", product)
                .update();
        var now = Instant.now();
        return orders.stream()
                .map(order -> CheckoutCommand.of(order, product, "user-" + order, 1, now))
                .toList();
    }

    /** Total nanoseconds recorded so far per step. */
    private Map<String, Double> stepTotals() {
        return meters.find(STEP_TIMER).timers().stream()
                .collect(Collectors.toMap(
                        timer -> timer.getId().getTag("step"),
                        timer -> timer.totalTime(TimeUnit.NANOSECONDS),
                        Double::sum));
    }

    private double totalNanos(String timer) {
        return meters.get(timer).timer().totalTime(TimeUnit.NANOSECONDS);
    }
}
