package dev.orderpipeline.api.order;

import dev.orderpipeline.api.web.ProblemException;
import dev.orderpipeline.api.web.ProblemKind;
import java.util.UUID;

/**
 * The caller's idempotency key placed an order for another request: a new order needs a new key. Nothing is placed;
 * the problem names the order the key placed (the caller's own).
 */
final class IdempotencyKeyReusedException extends ProblemException {

    IdempotencyKeyReusedException(IdempotencyKey key, UUID orderId) {
        super(
                ProblemKind.IDEMPOTENCY_KEY_REUSED,
                "Idempotency key " + key + " placed order " + orderId + " for another request: send a new key for a"
                        + " new order, or this key's first request again to get its order");
        property("orderId", orderId);
        property("idempotencyKey", key.value());
    }
}
