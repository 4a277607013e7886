package dev.orderpipeline.worker.checkout;

import dev.orderpipeline.contract.CheckoutCommand;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The stock of the products a batch transaction has locked, and what the batch's commands take from it. The rows stay
 * locked until the commit, so the stock left here is what the database will hold once {@link #taken()} is written.
 *
 * <p>Commands are offered in their apply order and each one takes its quantity if that much is left: the earlier
 * command gets the stock, and a later, smaller one may still fit where a larger one did not.
 */
final class LockedStock {

    private final Map<UUID, Integer> left;
    private final Map<UUID, Integer> taken = new TreeMap<>();

    /** @param stock the locked stock by product id */
    LockedStock(Map<UUID, Integer> stock) {
        this.left = new HashMap<>(stock);
    }

    /** Takes the command's quantity from its product if that much is left; returns whether it did. */
    boolean take(CheckoutCommand command) {
        var product = command.productId();
        var available = left.get(product);
        if (available == null) {
            throw new IllegalStateException("product " + product + " is not locked by this transaction");
        }
        if (available < command.quantity()) {
            return false;
        }
        left.put(product, available - command.quantity());
        taken.merge(product, command.quantity(), Integer::sum);
        return true;
    }

    /** Units left by product id, in id order: every locked product's stock once the batch has committed. */
    Map<UUID, Integer> left() {
        return Collections.unmodifiableMap(new TreeMap<>(left));
    }

    /** Units taken so far by product id, in id order; only products that gave something. */
    Map<UUID, Integer> taken() {
        return Collections.unmodifiableMap(taken);
    }
}
