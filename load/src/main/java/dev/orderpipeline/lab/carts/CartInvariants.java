package dev.orderpipeline.lab.carts;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The invariant columns of a carts table, taken from the database's verdict on the run's products and carts and
 * from nothing the clients were told.
 *
 * @param products each product's books
 * @param completed carts COMPLETED
 * @param rejected carts REJECTED
 * @param rejectionsByReason rejected carts by reason
 * @param completedNotAllSold completed carts with a line that is not SOLD
 * @param rejectedHolding rejected carts with a line still RESERVED or SOLD
 * @param heldOnceFinal units held (RESERVED or RELEASING lines) although every cart is final
 * @param doublePayments carts paid more than once
 * @param paymentsWithoutCompletion payments of carts that are not COMPLETED
 * @param notFinal carts neither COMPLETED nor REJECTED
 * @param holds every invariant holds
 * @param violations the ones that do not, in words
 */
public record CartInvariants(
        List<ProductBooks> products,
        long completed,
        long rejected,
        Map<String, Long> rejectionsByReason,
        long completedNotAllSold,
        long rejectedHolding,
        long heldOnceFinal,
        long doublePayments,
        long paymentsWithoutCompletion,
        long notFinal,
        boolean holds,
        List<String> violations) {

    public CartInvariants {
        products = List.copyOf(products);
        rejectionsByReason = Collections.unmodifiableMap(new TreeMap<>(rejectionsByReason));
        violations = List.copyOf(violations);
    }

    /**
     * One product's books after a run: stock + sold + held == initial when none was lost or made up.
     *
     * @param productId the product
     * @param initialStock units it started with
     * @param stockLeft units in stock now
     * @param sold units of SOLD lines (and of completed single-product orders, which a carts run has none of)
     * @param held units of RESERVED and RELEASING lines
     */
    public record ProductBooks(UUID productId, int initialStock, long stockLeft, long sold, long held) {

        /** stock + sold + held - initial: zero when the books are exact. */
        public long drift() {
            return stockLeft + sold + held - initialStock;
        }
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

    /** Products whose books are off. */
    public long productsOff() {
        return products.stream().filter(books -> books.drift() != 0).count();
    }
}
