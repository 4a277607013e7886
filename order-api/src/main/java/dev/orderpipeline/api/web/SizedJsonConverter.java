package dev.orderpipeline.api.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a JSON body whole, with its {@code Content-Length}. The stock converter streams the body and flushes it,
 * which commits the response before its length is known: Tomcat then sends it chunked, in two socket writes (the
 * headers with the body, and the closing chunk). The API's bodies are a few hundred bytes; buffering one costs less
 * than the second write.
 */
final class SizedJsonConverter extends JacksonJsonHttpMessageConverter {

    /** Room for an order or a problem without growing the buffer. */
    private static final int INITIAL_BUFFER = 512;

    SizedJsonConverter(JsonMapper mapper) {
        super(mapper);
    }

    @Override
    protected void writeInternal(
            Object value, ResolvableType type, HttpOutputMessage output, @Nullable Map<String, Object> hints)
            throws IOException {
        var body = new ByteArrayOutputStream(INITIAL_BUFFER);
        super.writeInternal(value, type, new Buffered(body, output.getHeaders()), hints);
        output.getHeaders().setContentLength(body.size());
        body.writeTo(output.getBody());
    }

    /** The message as the stock converter sees it: its headers, and the buffer as its body. */
    private record Buffered(OutputStream getBody, HttpHeaders getHeaders) implements HttpOutputMessage {}
}
