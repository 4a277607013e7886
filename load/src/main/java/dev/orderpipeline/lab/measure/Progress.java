package dev.orderpipeline.lab.measure;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * The live progress line: phase, done/total and rate. On a terminal it is rewritten in place a few times a second;
 * into a file or a pipe it is printed as a line of its own every few seconds, so logs stay readable.
 */
public final class Progress implements AutoCloseable {

    /** Set by bin/lab when stderr is a terminal: the JVM itself cannot tell for stderr alone. */
    public static final String TERMINAL_PROPERTY = "lab.terminal";

    private static final Duration TERMINAL_PERIOD = Duration.ofMillis(250);
    private static final Duration LOG_PERIOD = Duration.ofSeconds(5);

    private final @Nullable PrintStream out;
    private final boolean terminal;
    private final String command;
    private final @Nullable ScheduledExecutorService timer;
    private final LongAdder done = new LongAdder();
    private volatile @Nullable String phase;
    private volatile long total;
    private volatile long phaseStartedNanos;
    private long lastPrintedDone = -1;

    private Progress(@Nullable PrintStream out, boolean terminal, String command) {
        this.out = out;
        this.terminal = terminal;
        this.command = command;
        if (out == null) {
            timer = null;
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            var thread = new Thread(runnable, "lab-progress");
            thread.setDaemon(true);
            return thread;
        });
        var period = terminal ? TERMINAL_PERIOD : LOG_PERIOD;
        timer.scheduleAtFixedRate(this::print, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Progress on stderr, in place when bin/lab said stderr is a terminal. */
    public static Progress toStandardError(String command) {
        return new Progress(System.err, Boolean.getBoolean(TERMINAL_PROPERTY), command);
    }

    /** No output at all (tests). */
    public static Progress silent() {
        return new Progress(null, false, "");
    }

    /** Starts a phase of {@code total} steps (0 when unknown). */
    public synchronized void phase(String name, long total) {
        if (out != null && !terminal && phase != null && (this.total > 0 || done.sum() > 0)) {
            // in a log, each phase that counted something ends with its final line
            out.println(line());
            out.flush();
        }
        this.phase = name;
        this.total = total;
        done.reset();
        phaseStartedNanos = System.nanoTime();
        lastPrintedDone = -1;
    }

    public void advance() {
        done.increment();
    }

    /** Several steps at once (a batch of orders written, a second's worth of commands consumed). */
    public void advance(long steps) {
        done.add(steps);
    }

    /** A line that stays: a finished step or a warning. */
    public synchronized void note(String line) {
        if (out == null) {
            return;
        }
        if (terminal) {
            out.print("\r\u001b[K");
        }
        out.println(line);
        out.flush();
    }

    /** Ends the progress line; later output starts on a clean line. */
    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
        if (out != null && terminal) {
            out.print("\r\u001b[K");
            out.flush();
        }
        phase = null;
    }

    /** The current line, e.g. {@code compare | naive #1 checkout | 120/300 | 812/s | 2.1 s}. */
    String line() {
        var current = phase;
        if (current == null) {
            return "";
        }
        var count = done.sum();
        var seconds = (System.nanoTime() - phaseStartedNanos) / 1e9;
        var rate = seconds > 0 ? count / seconds : 0;
        if (total == 0 && count == 0) {
            return String.format(Locale.ROOT, "%s | %s | %.1f s", command, current, seconds);
        }
        var of = total > 0 ? count + "/" + total : Long.toString(count);
        return String.format(Locale.ROOT, "%s | %s | %s | %.0f/s | %.1f s", command, current, of, rate, seconds);
    }

    private synchronized void print() {
        if (out == null || phase == null) {
            return;
        }
        var count = done.sum();
        if (terminal) {
            out.print("\r\u001b[K" + line());
        } else if (count != lastPrintedDone || total == 0) {
            out.println(line());
            lastPrintedDone = count;
        }
        out.flush();
    }
}
