package dev.orderpipeline.lab.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class OpenLoadTests {

    @Test
    void dropsAndCountsTheArrivalsDueWhileTheInFlightBoundIsReached() throws Exception {
        var release = new CountDownLatch(1);
        var dropped = new ConcurrentLinkedQueue<Integer>();
        var load = new OpenLoad(new OpenModelSchedule(2000, Duration.ofMillis(50)), 100, 5, new OpenLoad.Arrivals() {
            @Override
            public void send(int index, long dueNanos) {
                await(release);
            }

            @Override
            public void dropped(int index) {
                dropped.add(index);
            }
        });

        try (load) {
            load.start(System.nanoTime()).awaitArrivals();

            assertThat(load.scheduled()).isEqualTo(100);
            assertThat(load.dropped()).isEqualTo(95);
            assertThat(dropped).containsExactlyElementsOf(range(5, 100));
            assertThat(load.awaitIdle(Duration.ofMillis(10))).isFalse();
            release.countDown();
            assertThat(load.awaitIdle(Duration.ofSeconds(10))).isTrue();
        }
        assertThat(load.latency().count()).isEqualTo(5);
    }

    @Test
    void startsEachArrivalAtItsScheduledTimeAndNotBefore() {
        var schedule = new OpenModelSchedule(1000, Duration.ofMillis(100));
        var due = new ConcurrentHashMap<Integer, Long>();
        var sentAt = new ConcurrentHashMap<Integer, Long>();
        var start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        var load = new OpenLoad(schedule, schedule.arrivals(), 1000, (index, dueNanos) -> {
            sentAt.put(index, System.nanoTime());
            due.put(index, dueNanos);
        });

        try (load) {
            load.start(start).awaitArrivals();
        }

        assertThat(load.dropped()).isZero();
        assertThat(due).hasSize(100);
        due.forEach((index, at) -> assertThat(at).isEqualTo(start + schedule.offsetNanos(index)));
        sentAt.forEach((index, at) -> assertThat(at).isGreaterThanOrEqualTo(due.get(index)));
    }

    @Test
    void timesEachArrivalFromItsScheduledStartSoThatQueueingShows() {
        var load = new OpenLoad(
                new OpenModelSchedule(100, Duration.ofMillis(50)),
                5,
                10,
                (index, dueNanos) -> LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(30)));

        try (load) {
            load.start(System.nanoTime()).awaitArrivals();
        }

        assertThat(load.latency().count()).isEqualTo(5);
        assertThat(load.latency().p50Ms()).isGreaterThanOrEqualTo(30);
    }

    @Test
    void startsNoArrivalOnceStopped() {
        var sent = new CountDownLatch(10);
        Map<Integer, Boolean> seen = new ConcurrentHashMap<>();
        var load = new OpenLoad(new OpenModelSchedule(1000, Duration.ofDays(1)), 1_000_000, 100, (index, due) -> {
            seen.put(index, true);
            sent.countDown();
        });

        try (load) {
            load.start(System.nanoTime());
            await(sent);
            load.stop();
            var scheduled = load.scheduled();

            assertThat(load.endedNanos()).isPositive();
            assertThat(load.scheduled()).isLessThan(1_000_000);
            assertThat(load.scheduled()).isEqualTo(scheduled);
        }
        assertThat(seen).hasSizeLessThanOrEqualTo((int) load.scheduled());
    }

    private static List<Integer> range(int from, int to) {
        return java.util.stream.IntStream.range(from, to).boxed().toList();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
