package dev.orderpipeline.api.order;

import java.util.UUID;

/** What a valid {@code POST /api/orders} places: an order of one product, or a cart of several. */
sealed interface Placement permits NewOrder, NewCart {

    UUID id();
}
