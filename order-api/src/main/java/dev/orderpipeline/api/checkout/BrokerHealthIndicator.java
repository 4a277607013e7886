package dev.orderpipeline.api.checkout;

import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

/**
 * The {@code kafka} health component: whether the broker describes its cluster within a short timeout, through an
 * admin client of its own, made on the first check.
 *
 * <p>It is part of the overall health, which operators and alerts read, and deliberately of no probe group. Not
 * liveness: restarting the API does not bring a broker back, and would drop the requests waiting for results. Not
 * readiness either, although a broken broker makes this instance answer every {@code kafka} checkout with 503:
 * the broker is shared by every instance, so when it is down it is down for all of them, and taking them out of
 * the load balancer would send the traffic nowhere better while turning a partial outage into a total one. Without
 * the broker the API still serves products, orders, polling and the lab's synchronous strategies, and its kafka
 * checkouts fail fast with a 503 and {@code Retry-After} that clients can act on, which a load balancer with no
 * instance left cannot say.
 */
@Component("kafkaHealthIndicator")
final class BrokerHealthIndicator implements HealthIndicator, DisposableBean {

    private final KafkaAdmin kafkaAdmin;
    private final Duration timeout;
    private @Nullable Admin admin;
    private boolean closed;

    BrokerHealthIndicator(KafkaAdmin kafkaAdmin, BrokerHealthProperties properties) {
        this.kafkaAdmin = kafkaAdmin;
        this.timeout = properties.timeout();
    }

    @Override
    public Health health() {
        var millis = (int) timeout.toMillis();
        try {
            var cluster = admin().describeCluster(new DescribeClusterOptions().timeoutMs(millis));
            var clusterId = cluster.clusterId().get(millis, TimeUnit.MILLISECONDS);
            var nodes = cluster.nodes().get(millis, TimeUnit.MILLISECONDS);
            return Health.up()
                    .withDetail("clusterId", String.valueOf(clusterId))
                    .withDetail("nodes", nodes.size())
                    .build();
        } catch (ExecutionException ex) {
            return Health.down(ex.getCause() == null ? ex : ex.getCause()).build();
        } catch (TimeoutException ex) {
            return Health.down()
                    .withDetail("error", "The broker did not describe its cluster within " + timeout)
                    .build();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return Health.unknown().withDetail("error", "interrupted").build();
        }
    }

    private synchronized Admin admin() {
        if (closed) {
            throw new IllegalStateException("the broker health check is closed");
        }
        if (admin == null) {
            // Boot's admin settings (bootstrap servers, security) with this check's own bounds
            var config = new HashMap<>(kafkaAdmin.getConfigurationProperties());
            config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
            config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
            admin = Admin.create(config);
        }
        return admin;
    }

    @Override
    public synchronized void destroy() {
        closed = true;
        if (admin != null) {
            admin.close(Duration.ofSeconds(1));
            admin = null;
        }
    }
}
