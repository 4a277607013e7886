package dev.orderpipeline.lab.backlog;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;
import java.util.stream.IntStream;
import picocli.CommandLine;

/**
 * How checkouts spread over products: uniformly over {@code N} products (all on one hot product when {@code N} is 1),
 * or Zipf-distributed over {@code N} products with exponent {@code s} (product 0 the most popular). Written {@code
 * hot}, {@code uniform:N} and {@code zipf:N:s} on the command line and in reports.
 */
public sealed interface KeyDistribution {

    /** How many products the checkouts go to. */
    int products();

    /** The command-line form, also the name in reports and report.json. */
    @JsonValue
    String label();

    /** A source of product indexes in {@code [0, products())} following this distribution; uniform unless overridden. */
    default IntSupplier sampler(SplittableRandom random) {
        return () -> random.nextInt(products());
    }

    /** One hot product: every checkout on it, written {@code hot}. */
    Uniform HOT = new Uniform(1);

    /** Every product equally likely. */
    record Uniform(int products) implements KeyDistribution {

        public Uniform {
            if (products < 1) {
                throw new IllegalArgumentException("uniform needs at least one product: " + products);
            }
        }

        @Override
        public String label() {
            return products == 1 ? "hot" : "uniform:" + products;
        }
    }

    /** Product {@code i} (from 0) with probability proportional to {@code 1 / (i + 1)^exponent}. */
    record Zipf(int products, double exponent) implements KeyDistribution {

        public Zipf {
            if (products < 1) {
                throw new IllegalArgumentException("zipf needs at least one product: " + products);
            }
            if (!(exponent > 0) || Double.isInfinite(exponent)) {
                throw new IllegalArgumentException("the zipf exponent must be positive: " + exponent);
            }
        }

        @Override
        public String label() {
            return "zipf:" + products + ":"
                    + BigDecimal.valueOf(exponent).stripTrailingZeros().toPlainString();
        }

        /**
         * Draws by inverting the cumulative distribution: exact for any exponent, and cheap enough for the lab's sizes
         * (a table of {@code products} doubles and a binary search per draw).
         */
        @Override
        public IntSupplier sampler(SplittableRandom random) {
            var cumulative = probabilities();
            Arrays.parallelPrefix(cumulative, Double::sum);
            // rounding must not leave the last bucket unreachable
            cumulative[products - 1] = 1.0;
            return () -> {
                var index = Arrays.binarySearch(cumulative, random.nextDouble());
                // not found: -(insertion point) - 1; the first bucket whose cumulative probability exceeds u
                return index >= 0 ? Math.min(index + 1, products - 1) : -index - 1;
            };
        }

        /** The probability of each product, product 0 the most likely. */
        double[] probabilities() {
            var weights = IntStream.range(0, products)
                    .mapToDouble(i -> 1.0 / Math.pow(i + 1, exponent))
                    .toArray();
            var total = Arrays.stream(weights).sum();
            return Arrays.stream(weights).map(weight -> weight / total).toArray();
        }
    }

    /** {@code hot}, {@code uniform:N} or {@code zipf:N:s}. */
    @JsonCreator
    static KeyDistribution parse(String text) {
        var parts = text.strip().toLowerCase(Locale.ROOT).split(":", -1);
        try {
            return switch (parts[0] + "/" + parts.length) {
                case "hot/1" -> HOT;
                case "uniform/2" -> new Uniform(Integer.parseInt(parts[1]));
                case "zipf/3" -> new Zipf(Integer.parseInt(parts[1]), Double.parseDouble(parts[2]));
                default -> throw new IllegalArgumentException("unknown name or wrong number of parts");
            };
        } catch (IllegalArgumentException ex) {
            // a NumberFormatException too: "For input string: x" says which part is wrong
            throw new IllegalArgumentException(
                    "not a key distribution: " + text + " (" + ex.getMessage() + "; hot, uniform:N or zipf:N:s)", ex);
        }
    }

    /** Lets picocli read {@code --keys hot,uniform:10000}. */
    final class Converter implements CommandLine.ITypeConverter<KeyDistribution> {

        @Override
        public KeyDistribution convert(String value) {
            return parse(value);
        }
    }
}
