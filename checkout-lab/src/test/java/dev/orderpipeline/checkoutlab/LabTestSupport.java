package dev.orderpipeline.checkoutlab;

import static dev.orderpipeline.api.TestTokens.AUTHORIZATION;
import static dev.orderpipeline.api.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.api.ApiClient;
import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.api.Together;
import dev.orderpipeline.infra.Postgres;
import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.invariants.InvariantReport;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The application with the lab switched on, on a database of its own: the lab relaxes the schema of the database it
 * migrates, which the production tests' database must never be. Races of buyers over HTTP go through the lab's
 * checkout ({@code ?strategy=}) and are judged by the database through the {@link InvariantChecker}.
 */
@TestPropertySource(
        properties = {
            "orderpipeline.lab.enabled=true",
            "spring.datasource.url=${" + LabTestSupport.LAB_DATABASE_URL_PROPERTY + "}"
        })
abstract class LabTestSupport extends ApiTestSupport {

    static final String LAB_DATABASE_URL_PROPERTY = "orderpipeline.test.lab-database-url";

    static final String LAB_DATABASE_URL = Postgres.forTests().createDatabase("order_api_lab");

    /** The lab's strategies of single-product orders. */
    static final List<String> SINGLE_PRODUCT_STRATEGIES = List.of(
            "naive", "naive-tx", "app-lock", "db-atomic", "for-update", "optimistic", "serializable", "status-claim");

    /** The lab's strategies of carts. */
    static final List<String> CART_STRATEGIES = List.of("cart-for-update", "cart-for-update-unsorted");

    /** Every strategy of the lab. */
    static final List<String> STRATEGIES = Stream.concat(SINGLE_PRODUCT_STRATEGIES.stream(), CART_STRATEGIES.stream())
            .toList();

    @DynamicPropertySource
    static void labDatabase(DynamicPropertyRegistry registry) {
        registry.add(LAB_DATABASE_URL_PROPERTY, () -> LAB_DATABASE_URL);
    }

    protected InvariantChecker invariants;

    @Autowired
    void invariantChecker(DataSource dataSource) {
        invariants = new InvariantChecker(dataSource);
    }

    @Autowired
    protected MeterRegistry meters;

    /** An order placed by one buyer. */
    record Buyer(UUID orderId, String userId) {}

    /**
     * What a race left: the HTTP statuses the buyers saw, and the database's verdict.
     *
     * @param statuses HTTP status to number of responses
     * @param retries attempts the strategy repeated after a conflict ({@code lab.checkout.retries})
     */
    record Race(String strategy, Map<Integer, Long> statuses, InvariantReport report, Duration elapsed, long retries) {

        String figures() {
            return ("%-13s completed=%3d stock=%3d drift=%4d doublePayments=%d ordersNotFinal=%3d rejected=%s http=%s"
                            + " in %d ms, %d retries")
                    .formatted(
                            strategy,
                            report.completedOrders(),
                            report.stockLeft(),
                            report.drift(),
                            report.doublePayments(),
                            report.ordersNotFinal(),
                            report.rejectionsByReason(),
                            statuses,
                            elapsed.toMillis(),
                            retries);
        }
    }

    /** Places {@code count} orders of one unit, one buyer each, straight in the table (the race is the checkout). */
    protected List<Buyer> placeOrders(UUID productId, int count) {
        return jdbc.sql("""
                        INSERT INTO orders (id, user_id, product_id, quantity)
                        SELECT gen_random_uuid(), :prefix || n, :productId, 1
                          FROM generate_series(1, :count) AS n
                        RETURNING id, user_id
                        """)
                .param("prefix", "buyer-" + UUID.randomUUID() + "-")
                .param("productId", productId)
                .param("count", count)
                .query((row, rowNumber) -> new Buyer(row.getObject("id", UUID.class), row.getString("user_id")))
                .list();
    }

    /** Every buyer checks out at the same instant through {@code client(i)}; then the database is read. */
    protected Race race(
            String strategy,
            UUID productId,
            int initialStock,
            List<Buyer> buyers,
            String query,
            Function<Integer, ApiClient> client) {
        var tasks = new ArrayList<Callable<ApiClient.Response>>();
        for (var i = 0; i < buyers.size(); i++) {
            var buyer = buyers.get(i);
            var api = client.apply(i);
            tasks.add(() -> checkout(api, buyer, strategy, query));
        }
        var retriesBefore = retries(strategy);
        var started = System.nanoTime();
        var responses = Together.run(tasks);
        var elapsed = Duration.ofNanos(System.nanoTime() - started);
        var statuses = responses.stream()
                .collect(Collectors.groupingBy(ApiClient.Response::status, TreeMap::new, Collectors.counting()));
        return new Race(
                strategy,
                statuses,
                invariants.check(productId, initialStock),
                elapsed,
                Math.round(retries(strategy) - retriesBefore));
    }

    /** The {@code lab.checkout.retries} counter of a strategy (of this instance), 0 before its first retry. */
    protected double retries(String strategy) {
        var counter =
                meters.find("lab.checkout.retries").tag("strategy", strategy).counter();
        return counter == null ? 0 : counter.count();
    }

    protected ApiClient.Response checkout(Buyer buyer, String strategy, String query) {
        return checkout(api, buyer, strategy, query);
    }

    protected static ApiClient.Response checkout(ApiClient api, Buyer buyer, String strategy, String query) {
        return api.post(
                "/api/orders/" + buyer.orderId() + "/checkout?strategy=" + strategy
                        + (query.isEmpty() ? "" : "&" + query),
                null,
                AUTHORIZATION,
                bearer(buyer.userId()));
    }

    protected static void assertExact(InvariantReport report, int initialStock, int buyers) {
        assertThat(report.violations()).isEmpty();
        assertThat(report.completedOrders()).isEqualTo(initialStock);
        assertThat(report.stockLeft()).isZero();
        assertThat(report.drift()).isZero();
        assertThat(report.doublePayments()).isZero();
        assertThat(report.ordersNotFinal()).isZero();
        assertThat(report.payments()).isEqualTo(initialStock);
        assertThat(report.rejectionsByReason()).isEqualTo(Map.of("INSUFFICIENT_STOCK", (long) buyers - initialStock));
    }
}
