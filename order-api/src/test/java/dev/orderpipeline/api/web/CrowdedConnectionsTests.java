package dev.orderpipeline.api.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.orderpipeline.api.ApiTestSupport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/** Above orderpipeline.requests.keep-alive-below open connections, an answer closes its connection. */
@TestPropertySource(properties = "orderpipeline.requests.keep-alive-below=" + CrowdedConnectionsTests.KEEP_ALIVE_BELOW)
class CrowdedConnectionsTests extends ApiTestSupport {

    static final int KEEP_ALIVE_BELOW = 40;

    @Autowired
    private OpenConnections openConnections;

    @Test
    void keepsConnectionsAliveBelowTheMarkAndClosesThemAfterTheAnswerAbove() throws IOException {
        assertThat(openConnections.getAsLong()).isLessThan(KEEP_ALIVE_BELOW);
        assertThat(connectionHeaderOfOneRequest()).isNull();

        var idle = new ArrayList<Socket>();
        try {
            for (int i = 0; i < KEEP_ALIVE_BELOW + 10; i++) {
                var socket = new Socket();
                socket.connect(new InetSocketAddress("127.0.0.1", port()), 5_000);
                idle.add(socket);
            }
            await().atMost(10, TimeUnit.SECONDS).until(() -> openConnections.getAsLong() > KEEP_ALIVE_BELOW);

            assertThat(connectionHeaderOfOneRequest()).isEqualTo("close");
        } finally {
            for (var socket : idle) {
                socket.close();
            }
        }
        await().atMost(10, TimeUnit.SECONDS).until(() -> openConnections.getAsLong() < KEEP_ALIVE_BELOW);
        assertThat(connectionHeaderOfOneRequest()).isNull();
    }

    /** The {@code Connection} header of the answer to a public read on a fresh connection, or null without one. */
    private String connectionHeaderOfOneRequest() throws IOException {
        try (var socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port()), 5_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream()
                    .write(("GET /api/products/" + UUID.randomUUID() + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            var reader = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            var statusLine = reader.readLine();
            assertThat(statusLine).startsWith("HTTP/1.1 404");
            List<String> headers = new ArrayList<>();
            for (var line = reader.readLine(); line != null && !line.isEmpty(); line = reader.readLine()) {
                headers.add(line);
            }
            return headers.stream()
                    .filter(header -> header.regionMatches(true, 0, "Connection:", 0, "Connection:".length()))
                    .map(header -> header.substring("Connection:".length()).strip())
                    .findFirst()
                    .orElse(null);
        }
    }
}
