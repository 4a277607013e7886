package dev.orderpipeline.api.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.orderpipeline.contract.ProductStock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StockDoorTests {

    private static final Duration SOLD_OUT_FOR = Duration.ofSeconds(2);

    private final MovableClock clock = new MovableClock(Instant.parse("2026-12-06T10:00:00Z"));
    private final StockDoor door = new StockDoor(SOLD_OUT_FOR, clock);
    private final UUID product = UUID.randomUUID();

    @Test
    void letsCheckoutsOfAnUnknownProductThrough() {
        assertThat(door.refused(product, 1)).isNull();
    }

    @Test
    void refusesWhatTheLastPublishedStockCannotGiveUntilTheBound() {
        door.learned(new ProductStock(product, 2, clock.instant()));

        assertThat(door.refused(product, 2)).isNull();
        assertThat(door.refused(product, 3)).isEqualTo(2);
        clock.advance(SOLD_OUT_FOR.minusMillis(1));
        assertThat(door.refused(product, 3)).isEqualTo(2);
    }

    @Test
    void letsOneCheckoutThroughOnceASoldOutIsStaleThenRefusesForAnotherBound() {
        door.learned(new ProductStock(product, 0, clock.instant()));
        clock.advance(SOLD_OUT_FOR);

        assertThat(door.refused(product, 1)).as("the first after the bound").isNull();
        assertThat(door.refused(product, 1))
                .as("the next ones, until the worker answers")
                .isZero();
        clock.advance(SOLD_OUT_FOR);
        assertThat(door.refused(product, 1)).as("one more after another bound").isNull();
    }

    @Test
    void opensAtOnceWhenTheWorkerPublishesStockAgain() {
        door.learned(new ProductStock(product, 0, clock.instant()));
        clock.advance(Duration.ofMillis(10));

        door.learned(new ProductStock(product, 5, clock.instant()));

        assertThat(door.refused(product, 1)).isNull();
    }

    @Test
    void ignoresAStockOlderThanTheOneItKnows() {
        var published = clock.instant();
        door.learned(new ProductStock(product, 5, published));
        door.learned(new ProductStock(product, 0, published.minusMillis(1)));

        assertThat(door.refused(product, 1)).isNull();
    }

    @Test
    void countsTheBoundFromReceiptWhenThePublishersClockIsAhead() {
        door.learned(new ProductStock(product, 0, clock.instant().plus(Duration.ofHours(1))));
        clock.advance(SOLD_OUT_FOR);

        assertThat(door.refused(product, 1)).isNull();
    }

    @Test
    void refusesNothingWhenSwitchedOff() {
        var off = new StockDoor(Duration.ZERO, clock);
        off.learned(new ProductStock(product, 0, clock.instant()));

        assertThat(off.refused(product, 1)).isNull();
        assertThat(off.refused(product, 1)).isNull();
    }

    private static final class MovableClock extends Clock {

        private Instant now;

        MovableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
