package dev.orderpipeline.api.health;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.ApiTestSupport;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A storm of probes on the management port while buyers check out on the API's port: the probes are answered from
 * health results at most {@code orderpipeline.health.cache-time} old, so they take one database connection per
 * second at most, never one of the buyers' places, and the buyers keep being served.
 */
class HealthFloodTests extends ApiTestSupport {

    private static final List<String> PROBES =
            List.of("/actuator/health/readiness", "/actuator/health/liveness", "/actuator/health");

    private static final int PROBERS = 50;

    private static final Duration PROBE_PAUSE = Duration.ofMillis(20);

    private static final int BUYERS = 8;

    private static final Duration PHASE = Duration.ofSeconds(3);

    @Autowired
    private MeterRegistry meters;

    @Test
    void asksTheDatabaseAtMostOncePerCacheTimeHoweverManyProbesCome() throws Exception {
        var acquiredBefore = connectionsAcquired();
        var started = System.nanoTime();

        var probes = flood(() -> {
                    sleep(PHASE);
                    return null;
                })
                .probes();

        var seconds = (System.nanoTime() - started) / 1e9;
        var acquired = connectionsAcquired() - acquiredBefore;
        System.out.printf("Probes: %s in %.1f s took %d database connections%n", probes, seconds, acquired);
        assertThat(probes.get(200)).as("probes answered 200: %s", probes).isGreaterThan(20);
        assertThat(probes.keySet()).as("statuses of the probes").containsOnly(200);
        // one check per second of cache time, and one more at each end of the storm
        assertThat(acquired)
                .as("database connections taken by %s probes in %.1f s", probes.get(200), seconds)
                .isLessThanOrEqualTo((long) Math.ceil(seconds) + 2);
    }

    @Test
    void keepsServingBuyersWhileProbesFlood() throws Exception {
        var product = createProduct(1_000_000, "1.00");
        var quiet = buy(product);
        var flooded = flood(() -> buy(product));

        var ratio = flooded.during().perSecond() / quiet.perSecond();
        System.out.printf(
                "Buyers: %.0f checkouts/s alone, %.0f/s under %s probes (%.2f of it)%n",
                quiet.perSecond(), flooded.during().perSecond(), flooded.probes(), ratio);
        assertThat(quiet.statuses().keySet()).as("buyers' statuses alone").containsOnly(201, 202);
        assertThat(flooded.during().statuses().keySet())
                .as("buyers' statuses during the probe storm")
                .containsOnly(201, 202);
        assertThat(flooded.probes().keySet()).as("statuses of the probes").containsOnly(200);
        // The storm takes no connection or place from the buyers, but it does take CPU: on two shared cores the
        // buyers kept 0.26-0.45 of their rate (the storm's own client included), so the bound is loose; what starved
        // them before was the pool, which the first test bounds exactly.
        assertThat(ratio).as("buyers' rate under the storm against alone").isGreaterThan(0.1);
    }

    /** Probes from {@link #PROBERS} clients, each pausing {@link #PROBE_PAUSE}, while {@code during} runs. */
    private <T> Flooded<T> flood(Callable<T> during) throws Exception {
        var statuses = new ConcurrentHashMap<Integer, Long>();
        var probing = new AtomicBoolean(true);
        var probe = ApiClient.anonymous(managementPort());
        try (var probers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var i = 0; i < PROBERS; i++) {
                var first = i;
                probers.submit(() -> {
                    for (var n = first; probing.get(); n++) {
                        statuses.merge(probe.get(PROBES.get(n % PROBES.size())).status(), 1L, Long::sum);
                        sleep(PROBE_PAUSE);
                    }
                    return null;
                });
            }
            try {
                var result = during.call();
                probing.set(false);
                probers.shutdown();
                probers.awaitTermination(30, TimeUnit.SECONDS);
                return new Flooded<>(result, Map.copyOf(statuses));
            } finally {
                probing.set(false);
            }
        }
    }

    /** What ran during a storm, and how the storm's probes were answered, by status. */
    private record Flooded<T>(T during, Map<Integer, Long> probes) {}

    /** {@link #BUYERS} buyers in a closed loop for {@link #PHASE}: each places an order and checks it out. */
    private Buying buy(UUID product) throws Exception {
        var statuses = new ConcurrentHashMap<Integer, Long>();
        var checkouts = new AtomicLong();
        var deadline = System.nanoTime() + PHASE.toNanos();
        var started = System.nanoTime();
        try (var buyers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var i = 0; i < BUYERS; i++) {
                buyers.submit(() -> {
                    var buyer = bearer(newUser());
                    while (System.nanoTime() < deadline) {
                        var order = api.post("/api/orders", """
                                {"productId": "%s", "quantity": 1}""".formatted(product), AUTHORIZATION, buyer);
                        statuses.merge(order.status(), 1L, Long::sum);
                        if (order.status() != 201) {
                            continue;
                        }
                        var checkout = api.post(
                                "/api/orders/" + order.json().get("id").asString() + "/checkout",
                                null,
                                AUTHORIZATION,
                                buyer);
                        statuses.merge(checkout.status(), 1L, Long::sum);
                        if (checkout.status() == 202) {
                            checkouts.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
        }
        return new Buying(checkouts.get() / ((System.nanoTime() - started) / 1e9), Map.copyOf(statuses));
    }

    private record Buying(double perSecond, Map<Integer, Long> statuses) {}

    private long connectionsAcquired() {
        return meters.find("hikaricp.connections.acquire").timers().stream()
                .mapToLong(Timer::count)
                .sum();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
