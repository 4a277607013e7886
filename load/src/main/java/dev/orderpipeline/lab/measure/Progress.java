package dev.orderpipeline.lab.measure;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The live progress line: which part of a long run (cell 7 of 36), the phase, done/total and rate, the time so far
 * and the time left. On a terminal it is rewritten in place a few times a second; into a file or a pipe it is printed
 * as a line of its own every few seconds, so logs stay readable.
 */
public final class Progress implements AutoCloseable {

    /** Set by bin/lab when stderr is a terminal: the JVM itself cannot tell for stderr alone. */
    public static final String TERMINAL_PROPERTY = "lab.terminal";

    private static final String GAP = "  ";
    private static final String CLEAR_LINE = "\r\u001b[K";

    private final PrintStream out;
    private final boolean terminal;
    private final String command;
    private final LongSupplier nanoTime;
    private final long startedNanos;
    private final @Nullable ScheduledExecutorService timer;
    private final LongAdder done = new LongAdder();
    private volatile @Nullable String phase;
    private volatile long total;
    private volatile long phaseStartedNanos;
    private volatile @Nullable Item item;

    /**
     * Where a run of many like parts ({@code cell}, {@code strategy}, ...) is; {@code number} is 1-based, and the parts
     * done since {@code firstStartedNanos}, over the time they took, give the time left.
     */
    private record Item(String name, int number, int count, long firstStartedNanos, long startedNanos) {}

    Progress(PrintStream out, boolean terminal, String command, LongSupplier nanoTime, boolean ticking) {
        this.out = out;
        this.terminal = terminal;
        this.command = command;
        this.nanoTime = nanoTime;
        this.startedNanos = nanoTime.getAsLong();
        this.phaseStartedNanos = startedNanos;
        if (!ticking) {
            timer = null;
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("lab-progress").daemon().factory());
        var periodMillis = terminal ? 250 : 5000;
        timer.scheduleAtFixedRate(this::print, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Progress on stderr, in place when bin/lab said stderr is a terminal. */
    public static Progress toStandardError(String command) {
        return new Progress(System.err, Boolean.getBoolean(TERMINAL_PROPERTY), command, System::nanoTime, true);
    }

    /** No output at all (tests). */
    public static Progress silent() {
        return new Progress(new PrintStream(OutputStream.nullOutputStream()), false, "", System::nanoTime, false);
    }

    /**
     * Starts part {@code number} of {@code count} of a long run, e.g. {@code item("cell", 7, 36, "hot p=6 w=2")}: the
     * line then says {@code cell 7/36 hot p=6 w=2} before the phase, and the time left from the parts done so far.
     */
    public synchronized void item(String noun, int number, int count, String label) {
        var now = nanoTime.getAsLong();
        var previous = item;
        var first = previous != null && number > 1 ? previous.firstStartedNanos() : now;
        var name = noun + ' ' + number + '/' + count;
        item = new Item(label.isEmpty() ? name : name + GAP + label, number, count, first, now);
        if (!terminal) {
            // in a log, each part starts with a line of its own: where the run is and how long it has left
            out.println(command + GAP + where(now));
            out.flush();
        }
    }

    /** Starts a phase of {@code total} steps (0 when unknown). */
    public void phase(String name, long total) {
        this.phase = name;
        this.total = total;
        done.reset();
        phaseStartedNanos = nanoTime.getAsLong();
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
        out.println(terminal ? CLEAR_LINE + line : line);
        out.flush();
    }

    /** Ends the progress line; later output starts on a clean line. */
    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
        if (terminal) {
            out.print(CLEAR_LINE);
            out.flush();
        }
        phase = null;
    }

    /**
     * The current line, e.g. {@code compare  elapsed 2s  checkout  120/300 40%  812/s}, or in a long run
     * {@code scale  cell 7/36  hot p=6 w=2  elapsed 12m04s  left ~50m00s  draining  20500/50000 41%  3200/s}.
     */
    String line() {
        var current = phase;
        if (current == null) {
            return "";
        }
        var now = nanoTime.getAsLong();
        var count = done.sum();
        var text = new StringBuilder(command).append(GAP).append(where(now));
        if (!current.isEmpty()) {
            text.append(GAP).append(current);
        }
        if (total > 0 || count > 0) {
            text.append(GAP).append(count);
            if (total > 0) {
                text.append(String.format(Locale.ROOT, "/%d %d%%", total, Math.min(100, count * 100 / total)));
            }
            var seconds = (now - phaseStartedNanos) / 1e9;
            text.append(GAP).append(String.format(Locale.ROOT, "%.0f/s", seconds > 0 ? count / seconds : 0));
        }
        return text.toString();
    }

    /**
     * The part and the times, {@code cell 7/36  hot p=6 w=2  elapsed 12m04s  left ~50m00s}; the time left only once
     * a part is done to judge by.
     */
    private String where(long now) {
        var elapsed = "elapsed " + clock(Duration.ofNanos(now - startedNanos));
        var part = item;
        if (part == null) {
            return elapsed;
        }
        var left = left(part.number(), part.count(), part.firstStartedNanos(), part.startedNanos(), now);
        return part.name() + GAP + (left == null ? elapsed : elapsed + GAP + "left ~" + clock(left));
    }

    /**
     * The parts done so far took this long each on average; the ones after this will too, and this one has what is
     * left of its average (nothing if it runs over).
     */
    static @Nullable Duration left(int number, int count, long firstStartedNanos, long startedNanos, long now) {
        var finished = number - 1;
        if (finished < 1) {
            return null;
        }
        var average = (startedNanos - firstStartedNanos) / (double) finished;
        var thisOne = Math.max(0, average - (now - startedNanos));
        return Duration.ofNanos((long) (average * (count - number) + thisOne));
    }

    /** {@code 41s}, {@code 12m04s}, {@code 1h02m}. */
    static String clock(Duration duration) {
        var seconds = duration.toSeconds();
        return seconds < 60
                ? seconds + "s"
                : seconds < 3600
                        ? String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60)
                        : String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds % 3600 / 60);
    }

    private synchronized void print() {
        if (phase != null) {
            // in place on a terminal, a line of its own in a log
            out.print(terminal ? CLEAR_LINE + line() : line() + System.lineSeparator());
            out.flush();
        }
    }
}
