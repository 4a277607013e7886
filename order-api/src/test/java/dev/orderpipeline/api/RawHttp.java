package dev.orderpipeline.api;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * HTTP/1.1 written and read as bytes on a socket, for requests that a well-behaved client library refuses to send:
 * any header bytes, a {@code Content-Length} that lies, a chunked body, a body the server may stop reading. One
 * connection per request, which asks the server to close it.
 */
public final class RawHttp {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int END_OF_HEAD = ('\r' << 24) | ('\n' << 16) | ('\r' << 8) | '\n';

    private final int port;
    private final int timeoutMillis;

    public RawHttp(int port) {
        this(port, 30_000);
    }

    /** A client that gives up on a response after {@code timeoutMillis} without a byte. */
    public RawHttp(int port, int timeoutMillis) {
        this.port = port;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * A request as it goes on the wire.
     *
     * @param target the request target, already percent-encoded
     * @param headers name and raw value bytes, in order; {@code Host} and {@code Connection} are added
     * @param body the bytes sent after the headers
     * @param framing how the body is framed
     */
    public record Request(String method, String target, List<Header> headers, byte[] body, Framing framing) {

        public Request {
            headers = List.copyOf(headers);
        }

        @Override
        public String toString() {
            var text = new StringBuilder(method).append(' ').append(target);
            headers.forEach(header ->
                    text.append(" | ").append(header.name()).append(": ").append(printable(header.value(), 120)));
            return text.append(" | ")
                    .append(framing)
                    .append(' ')
                    .append(body.length)
                    .append(" bytes: ")
                    .append(printable(body, 300))
                    .toString();
        }
    }

    /** A header whose value is sent byte for byte. */
    public record Header(String name, byte[] value) {

        public static Header of(String name, String value) {
            return new Header(name, value.getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    /** How the body is delimited. */
    public sealed interface Framing {}

    /** {@code Content-Length} with the body's true length (or none when there is no body). */
    public record Exact() implements Framing {}

    /** {@code Content-Length} with a value that need not match the body. */
    public record Declared(long length) implements Framing {}

    /** {@code Transfer-Encoding: chunked}, the body cut into chunks of at most {@code size} bytes. */
    public record Chunked(int size) implements Framing {}

    /** A response as read from the socket. */
    public record Response(int status, Map<String, String> headers, byte[] body) {

        public Optional<String> header(String name) {
            return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
        }

        public String contentType() {
            return header("content-type").orElse("");
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The body as JSON, or null when it is not JSON. */
        public @Nullable JsonNode jsonOrNull() {
            try {
                return JSON.readTree(body);
            } catch (JacksonException ex) {
                return null;
            }
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + printable(body, 500);
        }
    }

    public Response send(Request request) {
        try (var socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(timeoutMillis);
            var head = new ByteArrayOutputStream();
            write(head, request.method() + " " + request.target() + " HTTP/1.1\r\n");
            write(head, "Host: 127.0.0.1:" + port + "\r\n");
            write(head, "Connection: close\r\n");
            for (var header : request.headers()) {
                write(head, header.name() + ": ");
                head.writeBytes(header.value());
                write(head, "\r\n");
            }
            var body = request.body();
            switch (request.framing()) {
                case Exact exact -> {
                    if (body.length > 0 || !request.method().equals("GET")) {
                        write(head, "Content-Length: " + body.length + "\r\n");
                    }
                }
                case Declared declared -> write(head, "Content-Length: " + declared.length() + "\r\n");
                case Chunked chunked -> write(head, "Transfer-Encoding: chunked\r\n");
            }
            write(head, "\r\n");
            var wire = new ByteArrayOutputStream();
            wire.writeBytes(head.toByteArray());
            if (request.framing() instanceof Chunked chunked) {
                for (var offset = 0; offset < body.length; offset += chunked.size()) {
                    var length = Math.min(chunked.size(), body.length - offset);
                    write(wire, Integer.toHexString(length) + "\r\n");
                    wire.write(body, offset, length);
                    write(wire, "\r\n");
                }
                write(wire, "0\r\n\r\n");
            } else {
                wire.writeBytes(body);
            }
            try {
                var out = socket.getOutputStream();
                out.write(wire.toByteArray());
                out.flush();
            } catch (IOException ex) {
                // the server may answer and close before it has read everything; its answer is still there to read
            }
            return read(new BufferedInputStream(socket.getInputStream()));
        } catch (IOException ex) {
            throw new UncheckedIOException("sending " + request, ex);
        }
    }

    /**
     * Reads one response by its own framing ({@code Content-Length}, chunked, or up to the end of the stream), not
     * up to the close of the connection: a server that refused a body it was promised may keep the connection open
     * to drain that body after it has answered.
     */
    private static Response read(InputStream in) throws IOException {
        var head = new ByteArrayOutputStream();
        // the last four bytes read, to spot the blank line that ends the head
        var last = 0;
        while (last != END_OF_HEAD) {
            var b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after " + head.size() + " bytes of response head: "
                        + printable(head.toByteArray(), 300));
            }
            head.write(b);
            last = (last << 8) | b;
        }
        var lines = head.toString(StandardCharsets.ISO_8859_1).strip().split("\r\n");
        var status = Integer.parseInt(lines[0].split(" ")[1]);
        var headers = new LinkedHashMap<String, String>();
        for (var i = 1; i < lines.length; i++) {
            var colon = lines[i].indexOf(':');
            headers.merge(
                    lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).strip(),
                    (first, second) -> first + ", " + second);
        }
        byte[] body;
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = readChunks(in);
        } else if (headers.containsKey("content-length")) {
            body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
        } else {
            body = in.readAllBytes();
        }
        return new Response(status, headers, body);
    }

    private static byte[] readChunks(InputStream in) throws IOException {
        var out = new ByteArrayOutputStream();
        while (true) {
            var size = Integer.parseInt(readLine(in).split(";")[0].strip(), 16);
            if (size == 0) {
                readLine(in);
                return out.toByteArray();
            }
            out.writeBytes(in.readNBytes(size));
            readLine(in);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        var line = new ByteArrayOutputStream();
        for (var b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed inside a chunked body");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    private static void write(ByteArrayOutputStream out, String ascii) {
        out.writeBytes(ascii.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Bytes as text for a failure message: printable ASCII as is, the rest escaped, cut at {@code max}. */
    static String printable(byte[] bytes, int max) {
        var text = new StringBuilder();
        for (var i = 0; i < Math.min(bytes.length, max); i++) {
            var b = bytes[i] & 0xff;
            if (b >= 0x20 && b < 0x7f && b != '\\') {
                text.append((char) b);
            } else {
                text.append(String.format("\\x%02x", b));
            }
        }
        if (bytes.length > max) {
            text.append("…(").append(bytes.length).append(" bytes)");
        }
        return text.toString();
    }

    /** Percent-encodes every byte of the UTF-8 form of {@code text} except RFC 3986's unreserved characters. */
    public static String encode(String text) {
        var out = new StringBuilder();
        for (var b : text.getBytes(StandardCharsets.UTF_8)) {
            var c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        return out.toString();
    }

    /** Headers from name, value pairs. */
    public static List<Header> headers(String... namesAndValues) {
        var headers = new ArrayList<Header>();
        for (var i = 0; i < namesAndValues.length; i += 2) {
            headers.add(Header.of(namesAndValues[i], namesAndValues[i + 1]));
        }
        return headers;
    }
}
