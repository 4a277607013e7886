package dev.orderpipeline.api.web;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * Counts the bytes of every {@code @RequestBody} as the JSON reader consumes them and stops it with {@link
 * PayloadTooLargeException} one byte past the limit, so that a body that declares no length (chunked) cannot make the
 * API read more than a declared one could. The reader wraps the exception; {@link ProblemHandler} finds it and
 * answers 413.
 */
@ControllerAdvice
final class BoundedRequestBodyAdvice extends RequestBodyAdviceAdapter {

    private final RequestLimits limits;

    BoundedRequestBodyAdvice(RequestLimits limits) {
        this.limits = limits;
    }

    @Override
    public boolean supports(
            MethodParameter methodParameter, Type targetType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public HttpInputMessage beforeBodyRead(
            HttpInputMessage inputMessage,
            MethodParameter parameter,
            Type targetType,
            Class<? extends HttpMessageConverter<?>> converterType)
            throws IOException {
        var body = new BoundedInputStream(inputMessage.getBody(), limits);
        return new HttpInputMessage() {
            @Override
            public InputStream getBody() {
                return body;
            }

            @Override
            public HttpHeaders getHeaders() {
                return inputMessage.getHeaders();
            }
        };
    }

    private static final class BoundedInputStream extends FilterInputStream {

        private final RequestLimits limits;
        private long read;

        BoundedInputStream(InputStream in, RequestLimits limits) {
            super(in);
            this.limits = limits;
        }

        @Override
        public int read() throws IOException {
            var b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            var n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            var skipped = super.skip(n);
            count(skipped);
            return skipped;
        }

        private void count(long bytes) {
            read += bytes;
            var max = limits.maxBodySize().toBytes();
            if (read > max) {
                throw new PayloadTooLargeException(
                        "The request body is larger than the " + max + " bytes this API reads", limits.maxBodySize());
            }
        }
    }
}
