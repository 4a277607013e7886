package dev.orderpipeline.worker.cart;

import static org.awaitility.Awaitility.await;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CartLine;
import dev.orderpipeline.contract.CheckoutResult;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.worker.checkout.TopicReader;
import dev.orderpipeline.worker.checkout.WorkerIntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.beans.factory.annotation.Autowired;

/** The cart saga against the running worker: carts created as the API creates them, checked out as it publishes. */
abstract class CartSagaTest extends WorkerIntegrationTest {

    @Autowired
    DataSource dataSource;

    @Autowired
    CartCoordinator coordinator;

    @Autowired
    ReservationApplier reserver;

    /** A product and units of it, for a cart line. */
    record Item(UUID productId, int quantity) {}

    /** Creates a cart as the API does: the order row without product, its lines PENDING, in the order given. */
    UUID createCart(Item... items) {
        return createCart(UUID.randomUUID(), items);
    }

    /** Creates a cart with the given id. */
    UUID createCart(UUID orderId, Item... items) {
        // the order and its lines in one statement, so in one transaction: the cart's shape is checked at commit
        jdbc.sql("""
                        WITH placed AS (INSERT INTO orders (id, user_id) VALUES (:id, :user) RETURNING id)
                        INSERT INTO order_line (order_id, line_no, product_id, quantity)
                        SELECT placed.id, line.line_no, line.product_id, line.quantity
                          FROM placed,
                               unnest(:productIds, :quantities) WITH ORDINALITY AS line(product_id, quantity, line_no)
                        """)
                .param("id", orderId)
                .param("user", "user-" + orderId)
                .param("productIds", Arrays.stream(items).map(Item::productId).toArray(UUID[]::new))
                .param("quantities", Arrays.stream(items).map(Item::quantity).toArray(Integer[]::new))
                .update();
        return orderId;
    }

    /** The cart checkout command the API would publish for a cart. */
    CartCheckoutCommand cartCommandFor(UUID orderId) {
        var lines = jdbc.sql(
                        "SELECT line_no, product_id, quantity FROM order_line WHERE order_id = :id ORDER BY line_no")
                .param("id", orderId)
                .query((rs, row) -> new CartLine(
                        rs.getInt("line_no"), rs.getObject("product_id", UUID.class), rs.getInt("quantity")))
                .list();
        return CartCheckoutCommand.of(orderId, "user-" + orderId, lines, Instant.now());
    }

    /** Publishes cart checkouts as the API does (keyed by order, with the saga's headers) and waits for the acks. */
    void publishCarts(List<CartCheckoutCommand> commands) {
        var sends = new ArrayList<CompletableFuture<?>>();
        for (var command : commands) {
            var record = new ProducerRecord<String, Object>(Topics.CHECKOUT_CARTS, command.key(), command);
            record.headers().add(header(Headers.COMMAND_ID, command.commandId().toString()));
            record.headers().add(header(Headers.COMMAND_TYPE, CartCheckoutCommand.TYPE));
            record.headers().add(header(Headers.ORDER_ID, command.orderId().toString()));
            sends.add(kafka.send(record));
        }
        waitFor(sends);
    }

    /** Publishes a record as it is; {@code testCase} goes in a header that follows the record to the DLT. */
    void publishRaw(String topic, String key, Object value, String testCase) {
        var record = new ProducerRecord<String, Object>(topic, key, value);
        record.headers().add(header("test-case", testCase));
        waitFor(List.of(kafka.send(record)));
    }

    /** A step as the coordinator would send it. */
    static ReservationCommand step(ReservationCommand.Action action, UUID orderId, int lineNo, Item item) {
        return ReservationCommand.of(
                action, orderId, new CartLine(lineNo, item.productId(), item.quantity()), Instant.now());
    }

    /** Waits until every order is final and none of their lines holds stock any more. */
    void awaitSettled(Collection<UUID> orderIds, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> unsettled(orderIds) == 0);
    }

    long unsettled(Collection<UUID> orderIds) {
        return jdbc.sql("""
                        SELECT count(*) FROM orders o
                        WHERE o.id = ANY(:ids)
                          AND (o.status = 'CREATED'
                               OR EXISTS (SELECT 1 FROM order_line l
                                          WHERE l.order_id = o.id AND l.status IN ('RESERVED', 'RELEASING')))
                        """)
                .param("ids", orderIds.toArray(UUID[]::new))
                .query(Long.class)
                .single();
    }

    /** The states of a cart's lines in line order, e.g. {@code [SOLD, SOLD]}. */
    List<String> lineStatuses(UUID orderId) {
        return jdbc.sql("SELECT status FROM order_line WHERE order_id = :id ORDER BY line_no")
                .param("id", orderId)
                .query(String.class)
                .list();
    }

    /**
     * A cart of {@code kept} (reserved) and {@code scarce} (refused), started and decided by hand: REJECTED, its first
     * line RELEASING, and the release step returned instead of sent, as if lost between the commit and the send.
     */
    SagaSteps rejectedWithReleaseNotSent(UUID orderId) {
        var started = coordinator.start(List.of(new Delivery<>(cartCommandFor(orderId), 0, 0)));
        postponeDeadline(orderId);
        reserver.apply(List.of(
                new Delivery<>(started.steps().get(0), 0, 0),
                new Delivery<>(started.steps().get(1), 0, 1)));
        return coordinator.decide(List.of(orderId));
    }

    /** Gives a saga driven by hand all the time it needs, so the sweeper leaves it alone on a slow machine. */
    void postponeDeadline(UUID orderId) {
        jdbc.sql("UPDATE orders SET checkout_deadline = now() + interval '10 minutes' WHERE id = :id")
                .param("id", orderId)
                .update();
    }

    /** Deadlocks PostgreSQL has detected in this database so far. */
    long deadlocks() {
        return jdbc.sql("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
                .query(Long.class)
                .single();
    }

    /** The database's verdict on a product, by the invariant checker's rules. */
    InvariantReport invariants(UUID productId, int initialStock) {
        return new InvariantChecker(dataSource).check(productId, initialStock);
    }

    static List<CheckoutResult> resultsFor(TopicReader results, UUID orderId) {
        return results.records().stream()
                .filter(record -> orderId.toString().equals(record.key()))
                .map(record -> parseResult(record.value()))
                .toList();
    }
}
