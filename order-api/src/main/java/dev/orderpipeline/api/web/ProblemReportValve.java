package dev.orderpipeline.api.web;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ProblemDetail;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes the errors that the server raises itself, before any application code runs, as problem details instead of
 * its HTML page. Those are requests whose target is not a usable path once decoded (an encoded slash, backslash or
 * NUL, a {@code ..} above the root): the server refuses them while mapping, so no filter or controller advice ever
 * sees them. Errors the application already answered (anything with a body) are left alone.
 */
public final class ProblemReportValve extends ErrorReportValve {

    private static final Logger log = LoggerFactory.getLogger(ProblemReportValve.class);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    protected void report(Request request, Response response, @Nullable Throwable throwable) {
        var status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        var ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        var problem = ProblemDetail.forStatus(status);
        ProblemKind.stampStatus(problem, status);
        problem.setDetail(
                status == 400
                        ? "The request target is not a valid path"
                        : "The server refused the request before it reached the API");
        var body = new LinkedHashMap<String, Object>();
        body.put("type", String.valueOf(problem.getType()));
        body.put("title", problem.getTitle());
        body.put("status", status);
        body.put("detail", problem.getDetail());
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            var writer = response.getReporter();
            if (writer != null) {
                writer.write(JSON.writeValueAsString(body));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException ex) {
            log.debug("Could not write the problem for a {} the server raised", status, ex);
        }
    }
}
