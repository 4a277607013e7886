package dev.orderpipeline.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

class WorkerKillRestartTests {

    private final UUID first = UUID.fromString("00000000-0000-0000-0000-000000000001");
    private final UUID second = UUID.fromString("00000000-0000-0000-0000-000000000002");
    private final UUID third = UUID.fromString("00000000-0000-0000-0000-000000000003");

    @Test
    void putsAProductOnThePartitionTheProducerSendsItsCommandsTo() {
        for (var product : List.of(first, second, third, UUID.randomUUID())) {
            var key = product.toString().getBytes(StandardCharsets.UTF_8);
            assertThat(ProcessFaults.partitionOf(product, 6)).isEqualTo(BuiltInPartitioner.partitionForKey(key, 6));
        }
    }

    @Test
    void killsTheStaticMemberWhosePartitionsCarryMostProducts() {
        var members = List.of(
                new ProcessFaults.Member("checkout-worker-1", List.of(0, 1, 2)),
                new ProcessFaults.Member("checkout-worker-2-0", List.of(3, 4)),
                new ProcessFaults.Member("checkout-worker-2-1", List.of(5)));
        var partitionOf = Map.of(first, 1, second, 4, third, 5);

        var victim = ProcessFaults.choose(List.of("checkout-worker-1", "checkout-worker-2"), members, partitionOf);

        assertThat(victim.worker()).isEqualTo(1);
        assertThat(victim.staticMember()).isTrue();
        assertThat(victim.partitions()).containsExactly(3, 4, 5);
        assertThat(victim.products()).containsExactlyInAnyOrder(second, third);
    }

    @Test
    void takesTheFirstWorkerOnATie() {
        var members = List.of(
                new ProcessFaults.Member("checkout-worker-1", List.of(0)),
                new ProcessFaults.Member("checkout-worker-2", List.of(1)));

        var victim = ProcessFaults.choose(
                List.of("checkout-worker-1", "checkout-worker-2"), members, Map.of(first, 0, second, 1));

        assertThat(victim.worker()).isZero();
        assertThat(victim.products()).containsExactly(first);
    }

    @Test
    void watchesEveryProductWhenTheGroupHasNoStaticMembers() {
        var members =
                List.of(new ProcessFaults.Member(null, List.of(0, 1)), new ProcessFaults.Member(null, List.of(2)));

        var victim = ProcessFaults.choose(
                List.of("checkout-worker-1", "checkout-worker-2"), members, Map.of(first, 0, second, 2));

        assertThat(victim.worker()).isZero();
        assertThat(victim.staticMember()).isFalse();
        assertThat(victim.partitions()).isEmpty();
        assertThat(victim.products()).containsExactlyInAnyOrder(first, second);
    }
}
