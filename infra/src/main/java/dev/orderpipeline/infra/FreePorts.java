package dev.orderpipeline.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Ports for processes started on this machine: free ones to pick, and a check that a chosen one is free. */
public final class FreePorts {

    private FreePorts() {}

    /** One free TCP port on the loopback interface. */
    public static int one() {
        return several(1).getFirst();
    }

    /**
     * Distinct free TCP ports. All sockets stay open until every port is chosen, so the ports differ from each
     * other; another process may still take one before it is used, which is rare enough for local runs and tests.
     */
    public static List<Integer> several(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive: " + count);
        }
        var sockets = new ArrayList<ServerSocket>();
        try {
            var ports = new ArrayList<Integer>();
            for (var i = 0; i < count; i++) {
                var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports.add(socket.getLocalPort());
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
