package dev.orderpipeline.api.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class PreferWaitTests {

    private static final Duration MAX = Duration.ofSeconds(30);

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "wait=5|5",
                "WAIT = 5|5",
                "respond-async, wait=10|10",
                "wait=\"7\"|7",
                "wait=10; foo=bar|10",
                "wait=31|30",
                "wait=99999999999999999999999|30",
                "handling=lenient, wait=2, wait=9|2",
            })
    void readsTheWaitPreference(String header, long seconds) {
        assertThat(PreferWait.parse(header, MAX)).isEqualTo(Duration.ofSeconds(seconds));
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "respond-async", "wait=0", "wait=-1", "wait=soon", "wait=1.5", "wait", "waiting=5"})
    void ignoresAbsentOrUnusableWaits(String header) {
        assertThat(PreferWait.parse(header, MAX)).isNull();
    }

    @Test
    void tellsWhichWaitWasApplied() {
        assertThat(PreferWait.applied(Duration.ofSeconds(12))).isEqualTo("wait=12");
    }
}
