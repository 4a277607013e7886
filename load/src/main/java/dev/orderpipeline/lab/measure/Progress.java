package dev.orderpipeline.lab.measure;

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
 * The live progress line: which item of a long run (cell 7 of 36), the phase, done/total and rate, the time so far
 * and the time left. On a terminal it is rewritten in place a few times a second; into a file or a pipe it is printed
 * as a line of its own every few seconds, so logs stay readable.
 */
public final class Progress implements AutoCloseable {

    /** Set by bin/lab when stderr is a terminal: the JVM itself cannot tell for stderr alone. */
    public static final String TERMINAL_PROPERTY = "lab.terminal";

    private static final Duration TERMINAL_PERIOD = Duration.ofMillis(250);
    private static final Duration LOG_PERIOD = Duration.ofSeconds(5);
    private static final String GAP = "  ";

    private final @Nullable PrintStream out;
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
    private long lastPrintedDone = -1;

    /**
     * Where a run of many like parts ({@code cell}, {@code strategy}, ...) is; {@code number} is 1-based, and the parts
     * done since {@code firstStartedNanos}, over the time they took, give the time left.
     */
    private record Item(String noun, int number, int count, String label, long firstStartedNanos, long startedNanos) {}

    Progress(@Nullable PrintStream out, boolean terminal, String command, LongSupplier nanoTime, boolean ticking) {
        this.out = out;
        this.terminal = terminal;
        this.command = command;
        this.nanoTime = nanoTime;
        this.startedNanos = nanoTime.getAsLong();
        this.phaseStartedNanos = startedNanos;
        if (out == null || !ticking) {
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
        return new Progress(System.err, Boolean.getBoolean(TERMINAL_PROPERTY), command, System::nanoTime, true);
    }

    /** No output at all (tests). */
    public static Progress silent() {
        return new Progress(null, false, "", System::nanoTime, false);
    }

    /**
     * Starts part {@code number} of {@code count} of a long run, e.g. {@code item("cell", 7, 36, "hot p=6 w=2")}: the
     * line then says {@code cell 7/36 hot p=6 w=2} before the phase, and the time left from the parts done so far.
     * The label may be empty when the phases say what the part is; a phase that starts with the label drops it.
     */
    public synchronized void item(String noun, int number, int count, String label) {
        var now = nanoTime.getAsLong();
        var previous = item;
        var first = previous != null && previous.noun().equals(noun) && number > 1 ? previous.firstStartedNanos() : now;
        item = new Item(noun, number, count, label, first, now);
        if (out != null && !terminal) {
            // in a log, each part starts with a line of its own: where the run is and how long it has left
            out.println(itemLine(now));
            out.flush();
        }
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
        phaseStartedNanos = nanoTime.getAsLong();
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

    /**
     * The current line, e.g. {@code compare  naive #1 checkout  120/300 40%  812/s  2.1 s}, or in a long run
     * {@code scale  cell 7/36  hot p=6 w=2  draining  20500/50000 41%  3200/s  elapsed 12m04s  left ~50m}.
     */
    String line() {
        var current = phase;
        if (current == null) {
            return "";
        }
        var now = nanoTime.getAsLong();
        var count = done.sum();
        var seconds = (now - phaseStartedNanos) / 1e9;
        var text = new StringBuilder(command);
        var part = item;
        if (part != null) {
            text.append(GAP).append(itemName(part));
            if (!part.label().isEmpty() && current.startsWith(part.label())) {
                // a phase named after its part ("naive #1 checkout" in "strategy 2/9  naive #1") says it once
                current = current.substring(part.label().length()).replaceFirst("^[:\\s]+", "");
            }
        }
        if (!current.isEmpty()) {
            text.append(GAP).append(current);
        }
        if (total > 0 || count > 0) {
            text.append(GAP).append(count);
            if (total > 0) {
                text.append('/')
                        .append(total)
                        .append(' ')
                        .append(Math.min(100, count * 100 / total))
                        .append('%');
            }
            var rate = seconds > 0 ? count / seconds : 0;
            text.append(GAP).append(String.format(Locale.ROOT, "%.0f/s", rate));
        }
        text.append(GAP).append(part == null ? String.format(Locale.ROOT, "%.1f s", seconds) : times(part, now));
        return text.toString();
    }

    private String itemLine(long now) {
        var part = item;
        return part == null ? command : command + GAP + itemName(part) + GAP + times(part, now);
    }

    /** {@code cell 7/36  P=6 W=2 hot}, or without a label {@code run 7/30}. */
    private static String itemName(Item part) {
        var name = part.noun() + ' ' + part.number() + '/' + part.count();
        return part.label().isEmpty() ? name : name + GAP + part.label();
    }

    /** {@code elapsed 12m04s  left ~50m}; the time left only once a part is done to judge by. */
    private String times(Item part, long now) {
        var elapsed = "elapsed " + clock(Duration.ofNanos(now - startedNanos));
        var left = left(part.number(), part.count(), part.firstStartedNanos(), part.startedNanos(), now);
        return left == null ? elapsed : elapsed + GAP + "left ~" + approximately(left);
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
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds % 3600 / 60);
    }

    /** An estimate in its own precision: {@code 40s}, {@code 50m}, {@code 1h05m}. */
    static String approximately(Duration duration) {
        var seconds = duration.toSeconds();
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return Math.round(seconds / 60.0) + "m";
        }
        var minutes = Math.round(seconds / 60.0);
        return String.format(Locale.ROOT, "%dh%02dm", minutes / 60, minutes % 60);
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
