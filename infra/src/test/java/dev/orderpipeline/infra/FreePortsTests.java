package dev.orderpipeline.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
    void aPortSomethingListensOnIsNotFree() throws IOException {
        try (var socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(FreePorts.one()));

            assertThat(FreePorts.isFree(socket.getLocalPort())).isFalse();
        }
    }
}
