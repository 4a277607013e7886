package dev.orderpipeline.lab.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine a run ran on, so figures from different machines are not compared unawares.
 *
 * @param cores logical processors
 * @param cpuModel from {@code /proc/cpuinfo} where there is one
 * @param jdk the Java runtime the lab (and the processes it starts) ran on
 */
public record Machine(int cores, long memoryMiB, String cpuModel, String os, String jdk) {

    public static Machine current() {
        long memory = 0;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            memory = os.getTotalMemorySize() / (1024 * 1024);
        }
        return new Machine(
                Runtime.getRuntime().availableProcessors(),
                memory,
                readCpuModel(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                        + Runtime.version());
    }

    private static String readCpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).strip())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException | RuntimeException ex) {
            return "unknown";
        }
    }
}
