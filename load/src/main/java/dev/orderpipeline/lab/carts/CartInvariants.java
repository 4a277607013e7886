package dev.orderpipeline.lab.carts;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.pipeline.Database;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.ToLongFunction;

/**
 * The database's verdict on a carts run: each product's books as the invariants module's checker reads them (which
 * also judges the carts that have a line of the product), in the run's product order, and how the run's carts ended.
 * Never what the clients were told.
 */
public record CartInvariants(List<ProductBooks> products, CartOutcomes outcomes) {

    public CartInvariants {
        products = List.copyOf(products);
    }

    /**
     * One product's books after a run and the checker's verdict on it and on the carts with a line of it.
     *
     * @param sold units of SOLD lines
     * @param held units of RESERVED and RELEASING lines
     * @param heldOnceFinal units held although every order of the product is final: a release that never came
     * @param violations the rules that do not hold, in the checker's words
     */
    public record ProductBooks(
            UUID productId,
            int initialStock,
            long stockLeft,
            long sold,
            long held,
            long heldOnceFinal,
            List<String> violations) {

        public ProductBooks {
            violations = List.copyOf(violations);
        }

        /** stock + sold + held - initial: zero when no unit was lost or made up. */
        public long drift() {
            return stockLeft + sold + held - initialStock;
        }
    }

    /** The verdict on the products, in the map's order and against the stock they started with, and on the carts. */
    static CartInvariants read(Database database, Map<UUID, Integer> initialStock, List<UUID> carts) {
        var books = new InvariantChecker(database.dataSource())
                .check(initialStock).stream()
                        .map(report -> new ProductBooks(
                                report.productId(),
                                report.initialStock(),
                                report.stockLeft(),
                                report.soldQuantity(),
                                report.carts().heldQuantity(),
                                report.heldAfterAllFinal(),
                                report.violations()))
                        .toList();
        return new CartInvariants(books, CartOutcomes.read(database.dataSource(), carts));
    }

    /** Every rule holds for every product (the checker counts a cart not final as a violation). */
    public boolean holds() {
        return violations().isEmpty();
    }

    /** The rules that do not hold, each product's named by its place in the run (product 1, 2, ...). */
    public List<String> violations() {
        var violations = new ArrayList<String>();
        for (var index = 0; index < products.size(); index++) {
            for (var violation : products.get(index).violations()) {
                violations.add("product " + (index + 1) + ": " + violation);
            }
        }
        return List.copyOf(violations);
    }

    /** Products whose stock + sold + held differs from their initial stock. */
    public long productsOff() {
        return products.stream().filter(books -> books.drift() != 0).count();
    }

    /** A figure of the books summed over the run's products, e.g. {@code sum(ProductBooks::sold)}. */
    public long sum(ToLongFunction<ProductBooks> figure) {
        return products.stream().mapToLong(figure).sum();
    }
}
