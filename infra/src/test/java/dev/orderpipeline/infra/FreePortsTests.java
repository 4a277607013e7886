package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class FreePortsTests {

    @Test
    void picksDistinctFreePortsBelowTheEphemeralRangeThatOutgoingConnectionsUse() throws IOException {
        var ports = FreePorts.several(20);

        assertThat(ports).doesNotHaveDuplicates().hasSize(20);
        var ephemeralStart = FreePorts.ephemeralStart();
        if (ephemeralStart - FreePorts.LOWEST >= 1_000) {
            assertThat(ports).allSatisfy(port -> assertThat(port).isBetween(FreePorts.LOWEST, ephemeralStart - 1));
        }
        for (var port : ports) {
            try (var socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(port));
                assertThat(socket.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void readsTheKernelsEphemeralRange() throws IOException {
        var range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        assumeTrue(Files.exists(range), "a Linux kernel");
        try (var in = Files.newInputStream(range)) {
            var first = new String(in.readAllBytes(), StandardCharsets.US_ASCII)
                    .trim()
                    .split("\\s+")[0];
            assertThat(FreePorts.ephemeralStart()).isEqualTo(Integer.parseInt(first));
        }
    }

    @Test
    void neverHandsOutAPortTwiceWhileStacksStartSideBySide() throws Exception {
        try (var threads = Executors.newFixedThreadPool(4)) {
            var picks = new ArrayList<Future<List<Integer>>>();
            for (var i = 0; i < 4; i++) {
                picks.add(threads.submit(() -> FreePorts.several(50)));
            }
            var all = new ArrayList<Integer>();
            for (var pick : picks) {
                all.addAll(pick.get());
            }
            assertThat(all).hasSize(200).doesNotHaveDuplicates();
        }
    }

    @Test
    void aPortSomethingListensOnIsNotFree() throws IOException {
        try (var socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(FreePorts.one()));

            assertThat(FreePorts.isFree(socket.getLocalPort())).isFalse();
        }
    }
}
