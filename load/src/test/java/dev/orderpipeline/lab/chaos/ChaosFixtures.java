package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.invariants.CartVerdict;
import dev.orderpipeline.invariants.IdempotencyRows;
import dev.orderpipeline.invariants.InvariantReport;
import dev.orderpipeline.invariants.RepeatedEffects;
import dev.orderpipeline.lab.chaos.ChaosRun.FaultWindow;
import dev.orderpipeline.lab.chaos.ChaosRun.PoisonFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.TopicFigures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Made-up evidence of a chaos run, built up step by step by the tests. */
final class ChaosFixtures {

    final List<UUID> products = List.of(UUID.randomUUID(), UUID.randomUUID());
    final List<PreparedOrder> orders = new ArrayList<>();
    final List<Attempt> attempts = new ArrayList<>();
    final List<FaultWindow> faults = new ArrayList<>();
    final Map<UUID, Double> decidedAt = new HashMap<>();
    final List<PoisonFigures> poison = new ArrayList<>();
    RepeatedEffects retriedEffects = new RepeatedEffects(0, 0);
    TopicFigures topics = new TopicFigures(0, 0, 0, Map.of(), List.of());
    List<InvariantReport> books = List.of();
    IdempotencyRows idempotency = IdempotencyRows.NONE;

    @Nullable
    CartVerdict carts;

    static ChaosSettings settings(FaultKind... faults) {
        return new ChaosSettings(
                100,
                2,
                List.of(faults),
                1,
                Duration.ofSeconds(10),
                Duration.ofSeconds(15),
                Duration.ofSeconds(20),
                10,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                100,
                0.0,
                Duration.ofSeconds(20),
                ChaosSettings.DEFAULT_GROUP_SESSION);
    }

    /** An order of product {@code product % 2}, returned by index. */
    int order(int product) {
        orders.add(new PreparedOrder(UUID.randomUUID(), product % products.size(), "buyer-" + orders.size()));
        return orders.size() - 1;
    }

    /** A cart of both products, answered 202 at {@code answeredAt}, decided at {@code decided} (or never). */
    int cart(double answeredAt, Double decided) {
        orders.add(new PreparedOrder(UUID.randomUUID(), 1, "buyer-" + orders.size(), List.of(1, 0)));
        var index = orders.size() - 1;
        attempts.add(new Attempt(index, 1, answeredAt - 0.01, answeredAt, "202", false));
        if (decided != null) {
            decidedAt.put(orders.get(index).orderId(), decided);
        }
        return index;
    }

    /** An order answered {@code status} at {@code answeredAt} (sent 0.01 s earlier), decided at {@code decided}. */
    int checkout(int product, double answeredAt, String status, Double decided) {
        var index = order(product);
        attempts.add(new Attempt(index, 1, answeredAt - 0.01, answeredAt, status, "503".equals(status)));
        if (decided != null) {
            decidedAt.put(orders.get(index).orderId(), decided);
        }
        return index;
    }

    void retry(int index, int number, double answeredAt, String status) {
        attempts.add(new Attempt(index, number, answeredAt - 0.01, answeredAt, status, "503".equals(status)));
    }

    FaultWindow fault(FaultKind kind, String name, double start, double end) {
        return fault(kind, name, start, end, null);
    }

    /** A broker-kill or worker-freeze window with what its fault measured. */
    FaultWindow fault(FaultKind kind, String name, double start, double end, ChaosRun.@Nullable Takeover takeover) {
        var window = new FaultWindow(kind, name, start, end, "made up", null, takeover);
        faults.add(window);
        return window;
    }

    /** Books that hold: everything decided has its idempotency row, nothing drifts. */
    void soundBooks() {
        var list = new ArrayList<InvariantReport>();
        for (var product = 0; product < products.size(); product++) {
            var index = product;
            var decided = orders.stream()
                    .filter(order -> order.product() == index && decidedAt.containsKey(order.orderId()))
                    .count();
            list.add(new InvariantReport(
                    products.get(product),
                    100,
                    (int) (100 - decided),
                    decided,
                    decided,
                    0,
                    Map.of(),
                    0,
                    decided,
                    0,
                    0));
        }
        books = list;
        var orderCount = decidedAt.size();
        idempotency = new IdempotencyRows(orderCount, orderCount, 0);
        topics = new TopicFigures(orderCount, 0, 0, Map.of(), List.of());
    }

    ChaosJudge.Evidence evidence(ChaosSettings settings, double arrivalsEndedAt) {
        return new ChaosJudge.Evidence(
                settings,
                orders,
                attempts,
                faults,
                arrivalsEndedAt,
                decidedAt,
                books,
                idempotency,
                retriedEffects,
                poison,
                topics,
                null,
                carts,
                List.of());
    }
}
