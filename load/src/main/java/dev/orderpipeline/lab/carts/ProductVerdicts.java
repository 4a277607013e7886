package dev.orderpipeline.lab.carts;

import dev.orderpipeline.invariants.InvariantChecker;
import dev.orderpipeline.lab.pipeline.Database;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The invariants module's verdict on each product of a carts run, and on the carts with a line of it. */
final class ProductVerdicts {

    private ProductVerdicts() {}

    /** Each product's books, in the map's order, against the stock it started with, read in one snapshot. */
    static List<CartInvariants.ProductBooks> read(Database database, Map<UUID, Integer> initialStock) {
        return new InvariantChecker(database.dataSource())
                .check(initialStock).stream()
                        .map(report -> new CartInvariants.ProductBooks(
                                report.productId(),
                                report.initialStock(),
                                report.stockLeft(),
                                report.soldQuantity(),
                                report.carts().heldQuantity(),
                                report.heldAfterAllFinal(),
                                report.violations()))
                        .toList();
    }
}
