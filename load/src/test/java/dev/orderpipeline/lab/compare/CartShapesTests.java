package dev.orderpipeline.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CartShapesTests {

    private final List<UUID> products =
            IntStream.range(0, 3).mapToObj(index -> UUID.randomUUID()).toList();

    @Test
    void pairsOfCartsListTheSameProductsInOppositeOrders() {
        var shapes = CartShapes.of(products, 12, 2);

        assertThat(shapes).hasSize(12);
        for (var pair = 0; pair < 6; pair++) {
            var first = shapes.get(2 * pair);
            var second = shapes.get(2 * pair + 1);
            assertThat(first).hasSize(2).doesNotHaveDuplicates();
            assertThat(second).containsExactlyElementsOf(first.reversed());
        }
        // every pair of the three products is asked for, both ways round
        assertThat(shapes)
                .contains(
                        List.of(products.get(0), products.get(1)),
                        List.of(products.get(1), products.get(0)),
                        List.of(products.get(1), products.get(2)),
                        List.of(products.get(2), products.get(1)),
                        List.of(products.get(2), products.get(0)),
                        List.of(products.get(0), products.get(2)));
    }

    @Test
    void asksForEveryProductEquallyOften() {
        var demand = new HashMap<UUID, Integer>();
        CartShapes.of(products, 300, 2)
                .forEach(cart -> cart.forEach(product -> demand.merge(product, 1, Integer::sum)));

        assertThat(demand)
                .containsOnlyKeys(products)
                .allSatisfy((product, lines) -> assertThat(lines).isEqualTo(200));
    }

    @Test
    void cartsOfEveryProductHoldThemAllHalfOfThemReversed() {
        var shapes = CartShapes.of(products, 4, 3);

        assertThat(shapes).allSatisfy(cart -> assertThat(cart).containsExactlyInAnyOrderElementsOf(products));
        assertThat(shapes.get(1)).containsExactlyElementsOf(shapes.get(0).reversed());
        assertThat(shapes.get(3)).containsExactlyElementsOf(shapes.get(2).reversed());
    }

    @Test
    void refusesCartsOfMoreProductsThanThereAreOrOfOne() {
        assertThatIllegalArgumentException().isThrownBy(() -> new CompareSettings.Carts(3, 4));
        assertThatIllegalArgumentException().isThrownBy(() -> new CompareSettings.Carts(3, 1));
    }
}
