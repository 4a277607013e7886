package dev.orderpipeline.lab.backlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.orderpipeline.lab.report.ReportWriter;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyDistributionTests {

    @Test
    void readsTheThreeFormsAndWritesThemBackTheSameWay() {
        assertThat(KeyDistribution.parse("hot")).isEqualTo(KeyDistribution.HOT);
        assertThat(KeyDistribution.parse("uniform:1")).isEqualTo(KeyDistribution.HOT);
        assertThat(KeyDistribution.parse("uniform:10000")).isEqualTo(new KeyDistribution.Uniform(10_000));
        assertThat(KeyDistribution.parse(" ZIPF:10000:1.1 ")).isEqualTo(new KeyDistribution.Zipf(10_000, 1.1));

        assertThat(KeyDistribution.parse("hot").label()).isEqualTo("hot");
        assertThat(KeyDistribution.parse("uniform:10000").label()).isEqualTo("uniform:10000");
        assertThat(KeyDistribution.parse("zipf:10000:1.1").label()).isEqualTo("zipf:10000:1.1");
        assertThat(KeyDistribution.parse("zipf:50:2").label()).isEqualTo("zipf:50:2");
    }

    @Test
    void isWrittenToAndReadFromReportJsonAsItsLabel() {
        var keys = List.of(KeyDistribution.HOT, new KeyDistribution.Zipf(10_000, 1.1));

        var json = ReportWriter.JSON.writeValueAsString(keys);

        assertThat(json).isEqualToIgnoringWhitespace("[\"hot\", \"zipf:10000:1.1\"]");
        assertThat(ReportWriter.JSON.readValue(json, KeyDistribution[].class)).containsExactlyElementsOf(keys);
    }

    @Test
    void refusesWhatIsNotADistribution() {
        for (var wrong :
                new String[] {"", "warm", "hot:3", "uniform", "uniform:0", "uniform:x", "zipf:10", "zipf:10:0"}) {
            assertThatThrownBy(() -> KeyDistribution.parse(wrong))
                    .as(wrong)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("hot, uniform:N or zipf:N:s");
        }
    }

    @Test
    void putsEveryCheckoutOfTheHotKeyOnOneProduct() {
        var sampler = KeyDistribution.HOT.sampler(new SplittableRandom(1));
        for (var i = 0; i < 1000; i++) {
            assertThat(sampler.getAsInt()).isZero();
        }
    }

    @Test
    void spreadsUniformKeysEvenlyOverEveryProduct() {
        var products = 10;
        var draws = 100_000;
        var counts = new int[products];
        var sampler = new KeyDistribution.Uniform(products).sampler(new SplittableRandom(7));
        for (var i = 0; i < draws; i++) {
            counts[sampler.getAsInt()]++;
        }
        for (var count : counts) {
            // expected 10,000 each; the standard deviation is about 95
            assertThat(count).isBetween(9_500, 10_500);
        }
    }
}
