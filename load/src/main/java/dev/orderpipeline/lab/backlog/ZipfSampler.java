package dev.orderpipeline.lab.backlog;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;

/**
 * Draws ranks from a Zipf distribution over {@code n} items by inverting its cumulative distribution: item {@code i}
 * (from 0) comes with probability {@code (1 / (i + 1)^s) / H(n, s)}. Exact for any exponent, and cheap enough for the
 * lab's sizes (a table of {@code n} doubles and a binary search per draw).
 */
final class ZipfSampler implements IntSupplier {

    private final double[] cumulative;
    private final SplittableRandom random;

    ZipfSampler(int n, double exponent, SplittableRandom random) {
        var probabilities = probabilities(n, exponent);
        cumulative = new double[n];
        var sum = 0.0;
        for (var i = 0; i < n; i++) {
            sum += probabilities[i];
            cumulative[i] = sum;
        }
        // rounding must not leave the last bucket unreachable
        cumulative[n - 1] = 1.0;
        this.random = random;
    }

    /** The probability of each item, item 0 the most likely. */
    static double[] probabilities(int n, double exponent) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be positive: " + n);
        }
        var weights = new double[n];
        var total = 0.0;
        for (var i = 0; i < n; i++) {
            weights[i] = 1.0 / Math.pow(i + 1, exponent);
            total += weights[i];
        }
        for (var i = 0; i < n; i++) {
            weights[i] /= total;
        }
        return weights;
    }

    @Override
    public int getAsInt() {
        var u = random.nextDouble();
        var index = Arrays.binarySearch(cumulative, u);
        // not found: -(insertion point) - 1; the first bucket whose cumulative probability exceeds u
        return index >= 0 ? Math.min(index + 1, cumulative.length - 1) : -index - 1;
    }
}
