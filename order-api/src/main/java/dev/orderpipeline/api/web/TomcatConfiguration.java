package dev.orderpipeline.api.web;

import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Puts {@link ProblemReportValve} in the place of the server's HTML error report. Runs after Boot's own
 * customizer, which installs a plain {@link ErrorReportValve}, and names the valve class on the host so that the
 * host does not add its default one when it starts.
 */
@Configuration(proxyBeanMethods = false)
class TomcatConfiguration implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            if (!(context.getParent() instanceof StandardHost host)) {
                return;
            }
            var pipeline = host.getPipeline();
            for (var valve : pipeline.getValves()) {
                if (valve instanceof ErrorReportValve) {
                    pipeline.removeValve(valve);
                }
            }
            host.setErrorReportValveClass(ProblemReportValve.class.getName());
            pipeline.addValve(new ProblemReportValve());
        });
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
