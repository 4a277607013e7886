package dev.orderpipeline.lab.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One line of {@code /proc/<pid>/stat}: the process's name, parent, and the CPU time in user and kernel mode it and
 * the children it waited for used, in clock ticks. Linux only; elsewhere every read comes back empty.
 *
 * @param command the kernel's {@code comm}, at most 15 characters
 * @param ticks the process's own user and kernel time
 * @param reapedChildrenTicks the user and kernel time of the children it waited for: what a parent's whole process
 *     tree has used is both
 */
record ProcStat(long pid, String command, long parentPid, long ticks, long reapedChildrenTicks) {

    private static final Path PROC = Path.of("/proc");

    /** Clock ticks per second of the stat counters: USER_HZ, which Linux fixes at 100 on x86 and arm alike. */
    static final long TICKS_PER_SECOND = 100;

    /**
     * Parses a stat line. The name sits in parentheses and may hold spaces and parentheses itself, so the fields
     * are counted from the last closing one.
     */
    static ProcStat parse(String line) {
        var open = line.indexOf('(');
        var close = line.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a /proc stat line: " + line);
        }
        // after the name: state(0) ppid(1) pgrp session tty tpgid flags minflt cminflt majflt cmajflt
        // utime(11) stime(12) cutime(13) cstime(14)
        var fields = line.substring(close + 1).strip().split(" ");
        return new ProcStat(
                Long.parseLong(line.substring(0, open).strip()),
                line.substring(open + 1, close),
                Long.parseLong(fields[1]),
                Long.parseLong(fields[11]) + Long.parseLong(fields[12]),
                Long.parseLong(fields[13]) + Long.parseLong(fields[14]));
    }

    /** The stat of a live process; empty when it is gone or {@code /proc} cannot be read. */
    static Optional<ProcStat> read(long pid) {
        try {
            return Optional.of(
                    parse(Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"))));
        } catch (IOException | RuntimeException ex) {
            return Optional.empty();
        }
    }

    /** Resident memory of a live process in KiB ({@code VmRSS} of {@code /proc/<pid>/status}). */
    static OptionalLong residentKiB(long pid) {
        try (var lines = Files.lines(PROC.resolve(Long.toString(pid)).resolve("status"))) {
            return lines.filter(line -> line.startsWith("VmRSS:"))
                    // "VmRSS:    123456 kB"
                    .mapToLong(line -> Long.parseLong(line.replaceAll("\\D", "")))
                    .findFirst();
        } catch (IOException | RuntimeException ex) {
            return OptionalLong.empty();
        }
    }
}
