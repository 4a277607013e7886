package dev.orderpipeline.api.web;

import java.util.function.LongSupplier;
import org.apache.coyote.AbstractProtocol;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * The connections the API's server holds open now, as its Tomcat connector counts them: the ones being served and the
 * idle kept-alive ones, not those still in the kernel's accept queue. Only the API's own server: the actuator's, on
 * the management port, is built in a child context that this customizer is not part of.
 */
@Component
final class OpenConnections implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, LongSupplier {

    private volatile @Nullable AbstractProtocol<?> protocol;

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addConnectorCustomizers(connector -> {
            if (connector.getProtocolHandler() instanceof AbstractProtocol<?> handler) {
                protocol = handler;
            }
        });
    }

    /** The open connections, or 0 before the server has started. */
    @Override
    public long getAsLong() {
        var current = protocol;
        return current == null ? 0 : Math.max(0, current.getConnectionCount());
    }
}
