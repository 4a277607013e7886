package dev.orderpipeline.lab.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.ReservationCommand;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

class PoisonTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final List<UUID> hot = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
    private final UUID decoyProduct = UUID.randomUUID();
    private final List<PreparedOrder> decoys = IntStream.range(0, 10)
            .mapToObj(index -> new PreparedOrder(UUID.randomUUID(), 0, "decoy-" + index))
            .toList();

    @Test
    void splitsTheRecordsEvenlyOverTheKindsAndTagsEachWithTheRunAndItsKind() {
        var records = TopicFaults.build("run42", 1003, hot, decoyProduct, decoys, 7);

        assertThat(records).hasSize(1003);
        var perKind = TopicFaults.perKind(1003);
        // nine kinds: 111 each, the remaining 4 as garbage
        assertThat(perKind)
                .containsEntry(PoisonKind.GARBAGE_BYTES, 115)
                .containsEntry(PoisonKind.INVALID_JSON, 111)
                .containsEntry(PoisonKind.RESERVATION_NO_SUCH_LINE, 111);
        for (var kind : PoisonKind.values()) {
            assertThat(records.stream().filter(record -> kind.equals(kindOf(record))))
                    .as(kind.label())
                    .hasSize(perKind.get(kind));
        }
        assertThat(TopicFaults.kindOf("run43", "run42/garbage-bytes")).isNull();
    }

    @Test
    void makesEveryKindUnreadableAsACommandOrInconsistentWithItsOrder() {
        var records = TopicFaults.build("run42", 90, hot, decoyProduct, decoys, 7);

        for (var record : records) {
            var kind = kindOf(record);
            switch (kind) {
                case GARBAGE_BYTES, INVALID_JSON ->
                    assertThatThrownBy(() -> JSON.readTree(record.value()))
                            .as(kind.label())
                            .isInstanceOf(JacksonException.class);
                case ZERO_QUANTITY -> {
                    var json = JSON.readTree(record.value());
                    assertThat(json.path("quantity").asInt()).isZero();
                    assertThat(json.path("productId").asString()).isEqualTo(decoyProduct.toString());
                    assertThat(header(record, Headers.COMMAND_ID))
                            .isEqualTo(CheckoutCommand.idFor(
                                            UUID.fromString(json.path("orderId").asString()))
                                    .toString());
                }
                case MISSING_ORDER_ID -> {
                    var json = JSON.readTree(record.value());
                    assertThat(json.has("orderId")).isFalse();
                    assertThat(json.path("quantity").asInt()).isEqualTo(1);
                }
                case PRODUCT_MISMATCH -> {
                    var json = JSON.readTree(record.value());
                    var order = UUID.fromString(json.path("orderId").asString());
                    assertThat(decoys).extracting(PreparedOrder::orderId).contains(order);
                    assertThat(hot)
                            .contains(UUID.fromString(json.path("productId").asString()));
                    assertThat(new String(record.key(), StandardCharsets.UTF_8))
                            .isEqualTo(json.path("productId").asString());
                    assertThat(header(record, Headers.COMMAND_ID))
                            .isEqualTo(CheckoutCommand.idFor(order).toString());
                }
                case CART_INVALID_JSON ->
                    assertThatThrownBy(() -> JSON.readTree(record.value()))
                            .as(kind.label())
                            .isInstanceOf(JacksonException.class);
                case CART_NOT_A_CART -> {
                    var json = JSON.readTree(record.value());
                    var order = UUID.fromString(json.path("orderId").asString());
                    // a decoy: an order of one product, which a cart checkout does not match
                    assertThat(decoys).extracting(PreparedOrder::orderId).contains(order);
                    assertThat(json.path("lines").size()).isEqualTo(2);
                    assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(order.toString());
                    assertThat(header(record, Headers.COMMAND_TYPE)).isEqualTo(CartCheckoutCommand.TYPE);
                }
                case RESERVATION_GARBAGE_BYTES ->
                    assertThatThrownBy(() -> JSON.readTree(record.value()))
                            .as(kind.label())
                            .isInstanceOf(JacksonException.class);
                case RESERVATION_NO_SUCH_LINE -> {
                    var step = JSON.readValue(record.value(), ReservationCommand.class);
                    assertThat(decoys).extracting(PreparedOrder::orderId).contains(step.orderId());
                    assertThat(hot).contains(step.productId());
                    assertThat(new String(record.key(), StandardCharsets.UTF_8))
                            .isEqualTo(step.productId().toString());
                    assertThat(header(record, Headers.COMMAND_ID))
                            .isEqualTo(step.commandId().toString());
                }
            }
            assertThat(record.topic()).as(kind.label()).isEqualTo(kind.topic());
        }
    }

    @Test
    void masksIdsAndNumbersInReasonsSoThatOneKindCountsTogether() {
        var reason = "product 0b3c5a8e-8d4b-4b5e-9c1e-2f8a1d6c7e90 is not the product of order"
                + " 9f1e2d3c-4b5a-6789-0abc-def012345678 at column 12";

        assertThat(TopicEvidence.mask(reason)).isEqualTo("product <id> is not the product of order <id> at column <n>");
        assertThat(TopicEvidence.mask(null)).isEqualTo(TopicEvidence.NO_REASON);
    }

    private static PoisonKind kindOf(ProducerRecord<byte[], byte[]> record) {
        return TopicFaults.kindOf("run42", header(record, TopicFaults.TAG_HEADER));
    }

    private static String header(ProducerRecord<byte[], byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    @Test
    void splitsInTheKindsOrderForTheReport() {
        var perKind = TopicFaults.perKind(50);

        assertThat(perKind.keySet()).containsExactly(PoisonKind.values());
        assertThat(perKind.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(50);
    }
}
