package dev.orderpipeline.worker.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TimeOrderedIdsTests {

    @Test
    void makesVersionSevenUuidsThatStartWithTheTime() {
        var before = System.currentTimeMillis();
        var id = TimeOrderedIds.next();
        var after = System.currentTimeMillis();

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(millis(id)).isBetween(before, after);
    }

    @Test
    void sortsAnIdOfALaterMillisecondAfterAnEarlierOne() {
        var first = TimeOrderedIds.next();
        var second = first;
        while (millis(second) == millis(first)) {
            second = TimeOrderedIds.next();
        }

        // the order PostgreSQL's uuid type compares in: unsigned, byte by byte
        assertThat(first.toString()).isLessThan(second.toString());
    }

    @Test
    void doesNotRepeatWithinABatch() {
        var ids = new HashSet<UUID>();
        IntStream.range(0, 100_000).forEach(i -> ids.add(TimeOrderedIds.next()));

        assertThat(ids).hasSize(100_000);
    }

    private static long millis(UUID id) {
        return id.getMostSignificantBits() >>> 16;
    }
}
