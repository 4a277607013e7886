package dev.orderpipeline.checkoutlab;

import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fixed set of locks that products share by id hash (lock striping): memory stays bounded however many products
 * there are, at the price of two products sometimes waiting for each other.
 */
final class ProductLocks {

    private final ReentrantLock[] stripes;

    ProductLocks(int stripes) {
        if (stripes < 1) {
            throw new IllegalArgumentException("stripes must be positive, was " + stripes);
        }
        this.stripes = new ReentrantLock[stripes];
        for (var i = 0; i < stripes; i++) {
            // fair: under a burst on one product, buyers are served in arrival order instead of at random
            this.stripes[i] = new ReentrantLock(true);
        }
    }

    ReentrantLock forProduct(UUID productId) {
        var hash = productId.hashCode();
        return stripes[Math.floorMod(hash ^ (hash >>> 16), stripes.length)];
    }

    int stripes() {
        return stripes.length;
    }
}
