package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.lab.measure.StatusCounts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One buyer's checkout made ready before a burst, sent on a connection of its own as a flash sale's buyer sends it:
 * connect, write the request, read the answer until the server closes ({@code Connection: close}). Its token is
 * signed and its bytes are written when it is prepared, so the burst's client spends its CPU on the connections alone
 * and leaves the cores to what it measures; the JDK {@code HttpClient} cost 0.73 ms of the client's CPU per checkout
 * (pooling, a token per request, its selector and executor hand-offs), as much as order-api spent answering it.
 *
 * @param address order-api's host and port
 * @param request the whole HTTP/1.1 request
 * @param connectTimeout how long the connection may take, the kernel's SYN retries included
 * @param readTimeout how long the answer may take once the request is written
 */
public record PreparedCheckout(
        InetSocketAddress address, byte[] request, Duration connectTimeout, Duration readTimeout) {

    /** A POST of {@code path} on {@code baseUrl}, with no body. */
    static PreparedCheckout post(
            String baseUrl, String path, String authorization, Duration connectTimeout, Duration readTimeout) {
        var uri = URI.create(baseUrl);
        var request = "POST " + path + " HTTP/1.1\r\n"
                + "Host: " + uri.getHost() + ":" + uri.getPort() + "\r\n"
                + "Authorization: " + authorization + "\r\n"
                + "Accept: application/json\r\n"
                + "Content-Length: 0\r\n"
                + "Connection: close\r\n\r\n";
        return new PreparedCheckout(
                new InetSocketAddress(uri.getHost(), uri.getPort()),
                request.getBytes(StandardCharsets.US_ASCII),
                connectTimeout,
                readTimeout);
    }

    /**
     * Sends the checkout and returns its answer as {@link ApiClient#checkout} gives it: the status code, {@link
     * StatusCounts#SOLD_OUT} for a 409 of that problem type, {@link StatusCounts#TIMEOUT} when the connection or the
     * answer took too long, {@link StatusCounts#IO_ERROR} when the connection broke. Never throws.
     */
    public String send() {
        try (var socket = new Socket()) {
            socket.connect(address, Math.toIntExact(connectTimeout.toMillis()));
            socket.setSoTimeout(Math.toIntExact(readTimeout.toMillis()));
            socket.getOutputStream().write(request);
            var answer = new ByteArrayOutputStream(512);
            socket.getInputStream().transferTo(answer);
            return status(answer.toString(StandardCharsets.ISO_8859_1));
        } catch (SocketTimeoutException ex) {
            return StatusCounts.TIMEOUT;
        } catch (IOException ex) {
            return StatusCounts.IO_ERROR;
        }
    }

    /** The answer's status from its text: {@code HTTP/1.1 409 } and the problem type in the body, as {@link ApiClient#status}. */
    static String status(String answer) {
        var firstSpace = answer.indexOf(' ');
        if (!answer.startsWith("HTTP/") || firstSpace < 0 || answer.length() < firstSpace + 4) {
            return StatusCounts.IO_ERROR;
        }
        var code = answer.substring(firstSpace + 1, firstSpace + 4);
        return code.chars().allMatch(Character::isDigit) ? ApiClient.status(Integer.parseInt(code), answer) : code;
    }
}
