package dev.orderpipeline.infra;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operating-system process this JVM starts, stops and kills: the building block for the broker, the apps and the
 * lab's replicas. Output and errors go to one log file that restarts append to, so a chaos run keeps the history of
 * every incarnation. It can be started again after it ended.
 *
 * <p>On Linux the process runs in a session of its own ({@code setsid}): Ctrl-C in a terminal then reaches only the
 * launcher, whose shutdown hook stops the processes in order, instead of every process of the terminal's group at
 * once.
 */
public final class ManagedProcess {

    /** Decides whether a started process is ready for work; an exception counts as not ready yet. */
    @FunctionalInterface
    public interface Readiness {
        boolean isReady() throws Exception;
    }

    private static final Logger log = LoggerFactory.getLogger(ManagedProcess.class);
    private static final Duration FORCED_STOP_WAIT = Duration.ofSeconds(10);
    private static final @Nullable Path SETSID = findSetsid();

    private final String name;
    private final List<String> command;
    private final Path workingDirectory;
    private final Path logFile;
    private final Map<String, String> environment;
    private volatile @Nullable Process process;
    private volatile boolean exitExpected;
    private volatile long startedAtNanos;

    public ManagedProcess(
            String name, List<String> command, Path workingDirectory, Path logFile, Map<String, String> environment) {
        if (name.isBlank() || command.isEmpty()) {
            throw new IllegalArgumentException("a process needs a name and a command");
        }
        this.name = name;
        this.command = List.copyOf(command);
        this.workingDirectory = workingDirectory.toAbsolutePath().normalize();
        this.logFile = logFile.toAbsolutePath().normalize();
        this.environment = Map.copyOf(environment);
    }

    public ManagedProcess(String name, List<String> command, Path workingDirectory, Path logFile) {
        this(name, command, workingDirectory, logFile, Map.of());
    }

    /** The {@code java} launcher of the running JVM, so children run on the same JDK. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Starts the process; fails if it is running already. */
    public ManagedProcess start() {
        return launch(false);
    }

    private synchronized ManagedProcess launch(boolean oneShot) {
        var running = process;
        if (running != null && running.isAlive()) {
            throw new IllegalStateException(name + " is running already (pid " + running.pid() + ")");
        }
        var fullCommand = new ArrayList<String>();
        if (SETSID != null) {
            fullCommand.add(SETSID.toString());
        }
        fullCommand.addAll(command);
        try {
            Files.createDirectories(logFile.getParent());
            Files.createDirectories(workingDirectory);
            Files.writeString(
                    logFile,
                    "---- " + Instant.now() + " starting " + name + ": " + String.join(" ", command)
                            + System.lineSeparator(),
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            var builder = new ProcessBuilder(fullCommand)
                    .directory(workingDirectory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            builder.environment().putAll(environment);
            startedAtNanos = System.nanoTime();
            var started = builder.start();
            // nothing is ever typed into a child: end of input, not a pipe that stays open
            started.getOutputStream().close();
            // the new incarnation first, then the flag: the exit of a just-killed one must still read as expected
            process = started;
            exitExpected = oneShot;
            started.onExit().thenAccept(this::exited);
            log.debug("Started {} (pid {}), output in {}", name, started.pid(), logFile);
            return this;
        } catch (IOException ex) {
            throw new UncheckedIOException("could not start " + name + " with " + command, ex);
        }
    }

    /**
     * Runs a one-shot command (a tool, not a server) to its end and returns its exit code; kills it after the
     * timeout.
     */
    public int runToCompletion(Duration timeout) {
        var running = launch(true).requireStarted();
        if (!waitFor(running, timeout)) {
            kill();
            throw new IllegalStateException(
                    name + " did not finish within " + timeout.toSeconds() + " s" + logTailForMessage());
        }
        return running.exitValue();
    }

    /**
     * Waits until the readiness check passes. Fails early, with the end of the log, when the process exits first,
     * and after the timeout with the last check's failure.
     */
    public void awaitReady(Readiness readiness, Duration timeout) {
        var deadline = System.nanoTime() + timeout.toNanos();
        @Nullable Exception lastFailure = null;
        while (true) {
            var running = requireStarted();
            if (!running.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + running.exitValue()
                        + " before it was ready" + logTailForMessage());
            }
            try {
                if (readiness.isReady()) {
                    return;
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name, ex);
            } catch (Exception ex) {
                lastFailure = ex;
            }
            if (System.nanoTime() - deadline > 0) {
                var cause = lastFailure == null ? "" : " (last check: " + lastFailure + ")";
                throw new IllegalStateException(
                        name + " was not ready within " + timeout.toSeconds() + " s" + cause + logTailForMessage(),
                        lastFailure);
            }
            pause(running);
        }
    }

    /** Asks the process to stop (SIGTERM), waits up to {@code grace}, then kills it. Returns the exit code. */
    public synchronized int stop(Duration grace) {
        var running = process;
        if (running == null) {
            return -1;
        }
        exitExpected = true;
        if (running.isAlive()) {
            running.destroy();
            if (!waitFor(running, grace)) {
                log.warn("{} (pid {}) did not stop within {} s; killing it", name, running.pid(), grace.toSeconds());
                running.destroyForcibly();
                if (!waitFor(running, FORCED_STOP_WAIT)) {
                    throw new IllegalStateException(name + " (pid " + running.pid() + ") survived SIGKILL");
                }
            }
        }
        return running.exitValue();
    }

    /** Kills the process without warning (SIGKILL), as a crash or the OOM killer would. Returns the exit code. */
    public synchronized int kill() {
        var running = process;
        if (running == null) {
            return -1;
        }
        exitExpected = true;
        running.destroyForcibly();
        if (!waitFor(running, FORCED_STOP_WAIT)) {
            throw new IllegalStateException(name + " (pid " + running.pid() + ") survived SIGKILL");
        }
        return running.exitValue();
    }

    /** Time since the current (or last) incarnation was started. */
    public Duration sinceStart() {
        requireStarted();
        return Duration.ofNanos(System.nanoTime() - startedAtNanos);
    }

    public boolean isAlive() {
        var running = process;
        return running != null && running.isAlive();
    }

    /** The pid of the current (or last) incarnation. */
    public long pid() {
        return requireStarted().pid();
    }

    /** The current (or last) incarnation, e.g. to count its descendants or wait for its exit. */
    public Process process() {
        return requireStarted();
    }

    public String name() {
        return name;
    }

    public Path logFile() {
        return logFile;
    }

    /** The last lines of the log file, for error messages. */
    public String logTail(int lines) {
        return tail(logFile, lines);
    }

    /** The last lines of a text file, reading at most its last 64 KiB. */
    public static String tail(Path file, int lines) {
        if (!Files.isRegularFile(file)) {
            return "";
        }
        try (var reader = new RandomAccessFile(file.toFile(), "r")) {
            var length = reader.length();
            var start = Math.max(0, length - 64 * 1024);
            var bytes = new byte[(int) (length - start)];
            reader.seek(start);
            reader.readFully(bytes);
            var text = List.of(new String(bytes, StandardCharsets.UTF_8).split("\\R"));
            return String.join(System.lineSeparator(), text.subList(Math.max(0, text.size() - lines), text.size()));
        } catch (IOException ex) {
            throw new UncheckedIOException("could not read " + file, ex);
        }
    }

    @Override
    public String toString() {
        var running = process;
        return name + (running == null ? " (not started)" : " (pid " + running.pid() + ")");
    }

    private void exited(Process ended) {
        if (ended == process && !exitExpected) {
            log.warn(
                    "{} (pid {}) exited unexpectedly with code {}; see {}",
                    name,
                    ended.pid(),
                    ended.exitValue(),
                    logFile);
        }
    }

    private String logTailForMessage() {
        return "; last lines of " + logFile + ":" + System.lineSeparator() + logTail(40);
    }

    private Process requireStarted() {
        var running = process;
        if (running == null) {
            throw new IllegalStateException(name + " was never started");
        }
        return running;
    }

    private static boolean waitFor(Process running, Duration timeout) {
        try {
            return running.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            running.destroyForcibly();
            throw new IllegalStateException("interrupted while waiting for pid " + running.pid() + " to end", ex);
        }
    }

    /** Waits a quarter second between readiness checks, or less when the process exits meanwhile. */
    private static void pause(Process running) {
        try {
            running.onExit().get(250, TimeUnit.MILLISECONDS);
        } catch (TimeoutException ex) {
            // the usual case: still running, check again
            log.trace("pid {} still starting", running.pid());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for pid " + running.pid(), ex);
        } catch (ExecutionException ex) {
            throw new IllegalStateException("could not watch pid " + running.pid(), ex);
        }
    }

    private static @Nullable Path findSetsid() {
        if (!System.getProperty("os.name", "")
                .toLowerCase(java.util.Locale.ROOT)
                .contains("linux")) {
            return null;
        }
        for (var candidate : List.of("/usr/bin/setsid", "/bin/setsid")) {
            var path = Path.of(candidate);
            if (Files.isExecutable(path)) {
                return path;
            }
        }
        return null;
    }
}
