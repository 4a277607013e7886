package dev.orderpipeline.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CheckoutCommandTests {

    private final UUID orderId = UUID.randomUUID();
    private final UUID productId = UUID.randomUUID();

    @Test
    void derivesTheSameCommandIdForTheSameOrder() {
        var first = CheckoutCommand.of(orderId, productId, "alice", 1, Instant.now());
        var retry =
                CheckoutCommand.of(orderId, productId, "alice", 1, Instant.now().plusSeconds(5));

        assertThat(retry.commandId()).isEqualTo(first.commandId());
        assertThat(CheckoutCommand.idFor(UUID.randomUUID())).isNotEqualTo(first.commandId());
    }

    @Test
    void isKeyedByProduct() {
        assertThat(CheckoutCommand.of(orderId, productId, "alice", 1, Instant.now())
                        .key())
                .isEqualTo(productId.toString());
    }

    @Test
    void refusesANonPositiveQuantity() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CheckoutCommand.of(orderId, productId, "alice", 0, Instant.now()))
                .withMessageContaining("quantity");
    }

    @Test
    void refusesACommandIdThatIsNotTheOrdersOwn() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new CheckoutCommand(UUID.randomUUID(), orderId, productId, "alice", 1, Instant.now()))
                .withMessageContaining("not the checkout command id");
    }

    @Test
    void refusesARejectReasonOnACompletedResult() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new CheckoutResult(
                        CheckoutCommand.idFor(orderId),
                        orderId,
                        productId,
                        CheckoutOutcome.COMPLETED,
                        RejectReason.INSUFFICIENT_STOCK,
                        false,
                        Instant.now()));
    }
}
