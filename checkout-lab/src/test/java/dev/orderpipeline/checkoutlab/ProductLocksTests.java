package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.HashSet;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ProductLocksTests {

    @Test
    void givesOneProductAlwaysTheSameLock() {
        var locks = new ProductLocks(1024);
        var productId = UUID.randomUUID();

        assertThat(locks.forProduct(productId)).isSameAs(locks.forProduct(UUID.fromString(productId.toString())));
    }

    @Test
    void keepsTheNumberOfLocksBoundedAndSpreadsProductsOverThem() {
        var locks = new ProductLocks(64);

        var used = new HashSet<Object>();
        IntStream.range(0, 10_000).forEach(i -> used.add(locks.forProduct(UUID.randomUUID())));

        assertThat(locks.stripes()).isEqualTo(64);
        assertThat(used).hasSize(64);
    }

    @Test
    void refusesAnEmptySetOfLocks() {
        assertThatIllegalArgumentException().isThrownBy(() -> new ProductLocks(0));
    }
}
