package dev.orderpipeline.api;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs tasks each on a thread of its own, released at the same instant: every thread is started and waiting on
 * one latch before it opens, so the tasks really overlap.
 */
public final class Together {

    private static final long TIMEOUT_SECONDS = 120;

    private Together() {}

    /** The tasks' results in the order of the tasks; a task that threw has its exception rethrown here. */
    public static <T> List<T> run(List<? extends Callable<T>> tasks) {
        var results = new ArrayList<T>(tasks.size());
        for (var outcome : outcomes(tasks)) {
            try {
                results.add(outcome.get());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", ex);
            } catch (ExecutionException ex) {
                throw new IllegalStateException("a task failed", ex.getCause());
            }
        }
        return results;
    }

    /** The tasks' outcomes, done, for callers that expect some tasks to fail. */
    public static <T> List<Future<T>> outcomes(List<? extends Callable<T>> tasks) {
        var ready = new CountDownLatch(tasks.size());
        var go = new CountDownLatch(1);
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            var futures = new ArrayList<Future<T>>(tasks.size());
            for (var task : tasks) {
                futures.add(threads.submit(() -> {
                    ready.countDown();
                    go.await();
                    return task.call();
                }));
            }
            if (!ready.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the threads did not all start");
            }
            go.countDown();
            for (var future : futures) {
                try {
                    future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (ExecutionException ex) {
                    // reported to the caller through the future
                } catch (TimeoutException ex) {
                    throw new IllegalStateException("a task did not finish within " + TIMEOUT_SECONDS + " s", ex);
                }
            }
            return futures;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }
}
