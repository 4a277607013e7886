package dev.orderpipeline.worker.cart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

/**
 * Carts whose reservations wait in {@code checkout.reservations} while its consumer is down for longer than the
 * reservation timeout (8 s here) are not timed out for it: once the consumer is back they complete.
 */
class CartOutageTests extends CartSagaTest {

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @Test
    void cartsWhoseReservationsWaitThroughAnOutageLongerThanTheTimeoutCompleteOnceTheReserverIsBack() {
        var initial = 100;
        var a = createProduct(initial, "1.00");
        var b = createProduct(initial, "2.00");
        var carts = new ArrayList<UUID>();
        for (int i = 0; i < 10; i++) {
            carts.add(
                    i % 2 == 0
                            ? createCart(new Item(a, 1), new Item(b, 1))
                            : createCart(new Item(b, 1), new Item(a, 1)));
        }
        var reserver = listeners.getListenerContainer(ReservationListener.ID);
        assertThat(reserver).isNotNull();
        reserver.stop();
        try {
            publishCarts(carts.stream().map(this::cartCommandFor).toList());
            // the coordinator starts every saga and sends its reservations, which nobody reads now
            await().atMost(Duration.ofSeconds(30)).until(() -> started(carts) == carts.size());
            // the outage outlasts every deadline by two seconds, ten sweeps at 200 ms
            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> overdueByTwoSeconds(carts) == carts.size());
            assertThat(statuses(carts))
                    .as("no cart timed out while its reservations waited")
                    .allMatch("CREATED"::equals);
        } finally {
            reserver.start();
        }

        awaitSettled(carts, Duration.ofSeconds(60));
        assertThat(statuses(carts)).allMatch("COMPLETED"::equals);
        assertThat(stock(a)).isEqualTo(initial - carts.size());
        assertThat(stock(b)).isEqualTo(initial - carts.size());
        assertThat(invariants(a, initial).violations()).isEmpty();
        assertThat(invariants(b, initial).violations()).isEmpty();
    }

    private long started(Collection<UUID> carts) {
        return jdbc.sql("SELECT count(*) FROM orders WHERE id = ANY(:ids) AND checkout_deadline IS NOT NULL")
                .param("ids", carts.toArray(UUID[]::new))
                .query(Long.class)
                .single();
    }

    private long overdueByTwoSeconds(Collection<UUID> carts) {
        return jdbc.sql("""
                        SELECT count(*) FROM orders
                        WHERE id = ANY(:ids) AND checkout_deadline < now() - interval '2 seconds'
                        """)
                .param("ids", carts.toArray(UUID[]::new))
                .query(Long.class)
                .single();
    }
}
