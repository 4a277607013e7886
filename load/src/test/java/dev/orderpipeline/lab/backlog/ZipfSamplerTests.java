package dev.orderpipeline.lab.backlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZipfSamplerTests {

    @Test
    void givesEachRankItsZipfProbability() {
        var products = 1_000;
        var exponent = 1.1;
        var draws = 1_000_000;
        var counts = new int[products];
        var sampler = new KeyDistribution.Zipf(products, exponent).sampler(new SplittableRandom(42));
        for (var i = 0; i < draws; i++) {
            counts[sampler.getAsInt()]++;
        }

        var expected = new KeyDistribution.Zipf(products, exponent).probabilities();
        // the head, rank by rank: within 4 standard deviations of a binomial count
        for (var rank = 0; rank < 20; rank++) {
            var mean = expected[rank] * draws;
            var sigma = Math.sqrt(draws * expected[rank] * (1 - expected[rank]));
            assertThat((double) counts[rank]).as("rank " + (rank + 1)).isCloseTo(mean, within(4 * sigma));
        }
        // and the whole shape: Pearson's chi-square over 1000 bins stays far below its 0.999 quantile (~1143)
        var chiSquare = 0.0;
        for (var rank = 0; rank < products; rank++) {
            var mean = expected[rank] * draws;
            chiSquare += (counts[rank] - mean) * (counts[rank] - mean) / mean;
        }
        assertThat(chiSquare).isLessThan(1143);
    }

    @Test
    void makesTheFirstProductTheHottestAsTheExponentSays() {
        var probabilities = new KeyDistribution.Zipf(10_000, 1.1).probabilities();

        var sum = 0.0;
        for (var p : probabilities) {
            sum += p;
        }
        assertThat(sum).isCloseTo(1.0, within(1e-9));
        // p(1) / p(2) = 2^1.1
        assertThat(probabilities[0] / probabilities[1]).isCloseTo(Math.pow(2, 1.1), within(1e-9));
        // over 10,000 products with s = 1.1 the hottest takes about 15% of all checkouts
        assertThat(probabilities[0]).isBetween(0.15, 0.152);
    }

    @Test
    void neverDrawsOutsideTheProducts() {
        var sampler = new KeyDistribution.Zipf(3, 0.5).sampler(new SplittableRandom(3));
        for (var i = 0; i < 100_000; i++) {
            assertThat(sampler.getAsInt()).isBetween(0, 2);
        }
    }
}
