package dev.orderpipeline.lab.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LatencyRecorderTests {

    @Test
    void readsPercentilesOfEveryRecordedSample() {
        var recorder = new LatencyRecorder();
        // 1 ms, 2 ms, ... 1000 ms: the p-th percentile is p * 10 ms
        for (var millis = 1; millis <= 1000; millis++) {
            recorder.recordNanos(TimeUnit.MILLISECONDS.toNanos(millis));
        }

        var latency = recorder.summary();

        assertThat(latency.count()).isEqualTo(1000);
        // three significant digits: every value within 0.1 %
        assertThat(latency.p50Ms()).isCloseTo(500, within(0.5));
        assertThat(latency.p95Ms()).isCloseTo(950, within(0.95));
        assertThat(latency.p99Ms()).isCloseTo(990, within(0.99));
        assertThat(latency.maxMs()).isCloseTo(1000, within(1.0));
    }

    @Test
    void keepsTheTailThatAnAverageWouldHide() {
        var recorder = new LatencyRecorder();
        for (var request = 0; request < 98; request++) {
            recorder.recordNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        recorder.recordNanos(TimeUnit.SECONDS.toNanos(2));
        recorder.recordNanos(TimeUnit.SECONDS.toNanos(3));

        var latency = recorder.summary();

        assertThat(latency.p50Ms()).isCloseTo(10, within(0.01));
        assertThat(latency.p99Ms()).isCloseTo(2000, within(2.0));
        assertThat(latency.maxMs()).isCloseTo(3000, within(3.0));
    }

    @Test
    void recordsFromManyThreadsAtOnce() throws Exception {
        var recorder = new LatencyRecorder();
        var start = new CountDownLatch(1);
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (var thread = 0; thread < 100; thread++) {
                executor.execute(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                    for (var sample = 0; sample < 100; sample++) {
                        recorder.recordNanos(TimeUnit.MILLISECONDS.toNanos(5));
                    }
                });
            }
            start.countDown();
        }

        assertThat(recorder.count()).isEqualTo(10_000);
        assertThat(recorder.summary().p99Ms()).isCloseTo(5, within(0.01));
    }

    @Test
    void clampsWhatTheHistogramCannotHold() {
        var recorder = new LatencyRecorder();
        recorder.recordNanos(-5);
        recorder.recordNanos(TimeUnit.HOURS.toNanos(2));

        var latency = recorder.summary();

        assertThat(latency.count()).isEqualTo(2);
        assertThat(latency.p50Ms()).isEqualTo(0.0);
        assertThat(latency.maxMs()).isCloseTo(600_000, within(600.0));
    }

    @Test
    void anEmptyRecorderSummarizesToZeros() {
        assertThat(new LatencyRecorder().summary()).isEqualTo(new Latency(0, 0, 0, 0, 0));
    }
}
