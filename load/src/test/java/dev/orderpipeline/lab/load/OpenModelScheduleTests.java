package dev.orderpipeline.lab.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class OpenModelScheduleTests {

    @Test
    void spacesArrivalsEvenlyAtTheRate() {
        var schedule = new OpenModelSchedule(200, Duration.ofSeconds(1));

        assertThat(schedule.arrivals()).isEqualTo(200);
        assertThat(schedule.offsetNanos(0)).isZero();
        assertThat(schedule.offsetNanos(1)).isEqualTo(5_000_000);
        assertThat(schedule.offsetNanos(199)).isEqualTo(995_000_000);
        for (var index = 1; index < schedule.arrivals(); index++) {
            assertThat(schedule.offsetNanos(index) - schedule.offsetNanos(index - 1))
                    .isEqualTo(5_000_000);
        }
    }

    @Test
    void putsRateArrivalsIntoEverySecond() {
        var schedule = new OpenModelSchedule(3, Duration.ofSeconds(4));

        var perSecond = new TreeMap<Integer, Integer>();
        for (var index = 0; index < schedule.arrivals(); index++) {
            perSecond.merge((int) (schedule.offsetNanos(index) / 1_000_000_000L), 1, Integer::sum);
        }

        assertThat(schedule.arrivals()).isEqualTo(12);
        assertThat(perSecond)
                .containsExactly(
                        java.util.Map.entry(0, 3),
                        java.util.Map.entry(1, 3),
                        java.util.Map.entry(2, 3),
                        java.util.Map.entry(3, 3));
        // 1/3 s apart, rounded to the nanosecond
        assertThat(schedule.offsetNanos(1)).isEqualTo(333_333_333);
        assertThat(schedule.offsetNanos(2)).isEqualTo(666_666_667);
        assertThat(schedule.offsetNanos(3)).isEqualTo(1_000_000_000);
    }

    @Test
    void arrivalsDoNotDependOnAnswers() {
        // the schedule is a pure function of the index: a slow answer cannot postpone the next start
        var schedule = new OpenModelSchedule(1000, Duration.ofMillis(2500));

        assertThat(schedule.arrivals()).isEqualTo(2500);
        assertThat(schedule.offsetNanos(2499)).isEqualTo(2_499_000_000L);
        assertThat(schedule.offsetNanos(2499) / 1_000_000_000L).isEqualTo(2);
    }

    @Test
    void handlesRatesBelowOnePerSecondOfTheDuration() {
        var schedule = new OpenModelSchedule(0.5, Duration.ofSeconds(5));

        assertThat(schedule.arrivals()).isEqualTo(2);
        assertThat(schedule.offsetNanos(1)).isEqualTo(2_000_000_000L);
    }

    @Test
    void rejectsARateOrDurationThatSchedulesNothing() {
        assertThatThrownBy(() -> new OpenModelSchedule(0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OpenModelSchedule(Double.NaN, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OpenModelSchedule(10, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
