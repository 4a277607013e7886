package dev.orderpipeline.lab.carts;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The database's verdict on a carts run: each product's books as the invariants module's checker reads them (which
 * also judges the carts that have a line of the product), and how the run's carts ended. Never what the clients were
 * told.
 *
 * @param products each product's books and the checker's verdict on it, in the run's product order
 * @param outcomes how the run's carts ended
 */
public record CartInvariants(List<ProductBooks> products, CartOutcomes outcomes) {

    public CartInvariants {
        products = List.copyOf(products);
    }

    /**
     * One product's books after a run and the checker's verdict on it and on the carts with a line of it.
     *
     * @param productId the product
     * @param initialStock units it started with
     * @param stockLeft units in stock now
     * @param sold units sold (SOLD lines)
     * @param held units held (RESERVED and RELEASING lines)
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

    public long initialStock() {
        return products.stream().mapToLong(ProductBooks::initialStock).sum();
    }

    public long stockLeft() {
        return products.stream().mapToLong(ProductBooks::stockLeft).sum();
    }

    public long sold() {
        return products.stream().mapToLong(ProductBooks::sold).sum();
    }

    public long held() {
        return products.stream().mapToLong(ProductBooks::held).sum();
    }

    public long heldOnceFinal() {
        return products.stream().mapToLong(ProductBooks::heldOnceFinal).sum();
    }

    /** Products whose stock + sold + held differs from their initial stock. */
    public long productsOff() {
        return products.stream().filter(books -> books.drift() != 0).count();
    }
}
