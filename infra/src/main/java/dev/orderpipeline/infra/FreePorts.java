package dev.orderpipeline.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for processes started on this machine: free ones to pick, and a check that a chosen one is free. Picked ports
 * lie below the kernel's ephemeral range (Linux: {@code net.ipv4.ip_local_port_range}, 32768-60999 by default), from
 * which every outgoing connection takes its local port: a port from that range is free when picked, but a client's
 * connection can take it while the process that listened there restarts in place (a worker killed and started again
 * under its name lost its port that way to the lab's own HTTP connections).
 */
public final class FreePorts {

    /** The lowest port handed out. */
    static final int LOWEST = 10_000;

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int ATTEMPTS = 10_000;

    /**
     * Every port handed out by this JVM: stacks started side by side in one JVM (the lab's end-to-end classes run
     * concurrently) never get the same port between its pick and its bind.
     */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {}

    /** One free TCP port on the loopback interface. */
    public static int one() {
        return several(1).getFirst();
    }

    /**
     * Distinct free TCP ports, at random between {@link #LOWEST} and the start of the ephemeral range; where that
     * range leaves no room below it, or is not known, ports the kernel picks. Never one that this JVM handed out
     * before. Another process may still take one before it is used, which is rare enough for local runs and tests.
     */
    public static List<Integer> several(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive: " + count);
        }
        var ephemeralStart = ephemeralStart();
        if (ephemeralStart - LOWEST < 1_000) {
            return pickedByTheKernel(count);
        }
        var random = ThreadLocalRandom.current();
        var ports = new ArrayList<Integer>();
        for (var attempt = 0; attempt < ATTEMPTS && ports.size() < count; attempt++) {
            var port = random.nextInt(LOWEST, ephemeralStart);
            if (isFree(port) && HANDED_OUT.add(port)) {
                ports.add(port);
            }
        }
        if (ports.size() < count) {
            throw new IllegalStateException("found " + ports.size() + " of " + count + " free ports between " + LOWEST
                    + " and " + ephemeralStart);
        }
        return List.copyOf(ports);
    }

    /** The first port of the kernel's ephemeral range, or {@link #LOWEST} when it is not known. */
    static int ephemeralStart() {
        // a line read, not Files.readString: that reads a procfs file, which reports a size of 0, as its first byte
        try (var reader = Files.newBufferedReader(EPHEMERAL_RANGE)) {
            var range =
                    Objects.requireNonNull(reader.readLine(), "empty").trim().split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException ex) {
            return LOWEST;
        }
    }

    /** Distinct ports the kernel picks: every socket stays open until all are chosen, so they differ. */
    private static List<Integer> pickedByTheKernel(int count) {
        var sockets = new ArrayList<ServerSocket>();
        try {
            var ports = new ArrayList<Integer>();
            while (ports.size() < count) {
                var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    ports.add(socket.getLocalPort());
                }
            }
            return List.copyOf(ports);
        } catch (IOException ex) {
            throw new UncheckedIOException("no free port found", ex);
        } finally {
            for (var socket : sockets) {
                release(socket);
            }
        }
    }

    /** Whether nothing listens on the port on any local address (the apps bind to all interfaces). */
    public static boolean isFree(int port) {
        try (var socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException ex) {
            return false;
        }
    }

    /** Fails with a message naming the port's purpose when something already listens on it. */
    public static void requireFree(int port, String purpose) {
        if (!isFree(port)) {
            throw new IllegalStateException("Port " + port + " (" + purpose + ") is already in use; stop what"
                    + " listens there (an earlier run that was killed?) or choose another port");
        }
    }

    private static void release(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException ex) {
            throw new UncheckedIOException("could not release probe socket", ex);
        }
    }
}
