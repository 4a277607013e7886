package dev.orderpipeline.api.order;

import dev.orderpipeline.api.web.Caller;
import dev.orderpipeline.contract.CartLine;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Body of {@code POST /api/orders}: one product ({@code productId} and {@code quantity}) or a list of {@code lines},
 * never both ({@link OrderShape}). Its fields are nullable so that bean validation, not the JSON reader, reports
 * what is missing.
 */
@OrderShape
record CreateOrderRequest(
        @Nullable UUID productId,
        @Nullable @Positive Integer quantity,
        @Nullable List<@Nullable @NotNull @Valid LineRequest> lines) {

    /** One product of a {@code lines} request. */
    record LineRequest(
            @Nullable @NotNull UUID productId,
            @Nullable @NotNull @Positive Integer quantity) {}

    /**
     * What the request places for the caller, with a fresh id; call it on a validated request only. Lines of the
     * same product are merged into one, at the place the product was first listed; one product, however it was
     * asked for, is a single-product order.
     */
    Placement toPlacement(Caller caller) {
        var id = UUID.randomUUID();
        if (lines == null) {
            return new NewOrder(
                    id,
                    caller.userId(),
                    Objects.requireNonNull(productId, "productId"),
                    Objects.requireNonNull(quantity, "quantity"));
        }
        var merged = merged(lines);
        if (merged.size() == 1) {
            var only = merged.getFirst();
            return new NewOrder(id, caller.userId(), only.productId(), only.quantity());
        }
        return new NewCart(id, caller.userId(), merged);
    }

    /**
     * The request as read, whitespace and member order aside: {@code productId} and {@code quantity}, or the {@code
     * lines} in the order sent (null members as null). Two requests with the same hash are the same request; the
     * text is spelled out here, not left to a serializer, so that an upgrade does not change it for keys kept from
     * before.
     */
    RequestHash hash() {
        var text = new StringBuilder("productId=")
                .append(productId)
                .append(";quantity=")
                .append(quantity)
                .append(";lines=");
        if (lines == null) {
            text.append("null");
        } else {
            text.append('[');
            for (var line : lines) {
                text.append(line == null ? "null" : line.productId() + "x" + line.quantity())
                        .append(',');
            }
            text.append(']');
        }
        return RequestHash.ofText(text.toString());
    }

    /** The lines with each product once, its quantities added up, numbered from 1 in first-listed order. */
    static List<CartLine> merged(List<@Nullable LineRequest> lines) {
        var quantities = new LinkedHashMap<UUID, Integer>();
        for (var line : lines) {
            var valid = Objects.requireNonNull(line, "line");
            quantities.merge(
                    Objects.requireNonNull(valid.productId(), "productId"),
                    Objects.requireNonNull(valid.quantity(), "quantity"),
                    Math::addExact);
        }
        var merged = new ArrayList<CartLine>(quantities.size());
        quantities.forEach((product, units) -> merged.add(new CartLine(merged.size() + 1, product, units)));
        return merged;
    }
}
