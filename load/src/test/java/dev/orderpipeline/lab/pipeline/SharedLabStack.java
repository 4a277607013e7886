package dev.orderpipeline.lab.pipeline;

import dev.orderpipeline.lab.report.Machine;
import dev.orderpipeline.lab.report.ReportHeader;
import dev.orderpipeline.lab.report.Versions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One lab stack (the lab on, one API, one worker, a database of its own) for every end-to-end test class that asks
 * for a {@link Lab} parameter: started by the first, stopped when the test run ends. A stack from the jars takes
 * 20-70 s to start on two shared cores, more than most of these tests take to run.
 *
 * <p>Only tests that judge what they made themselves share it: each creates its own products and orders, and reads
 * the database's counters (deadlocks, aborted transactions) as a difference over its own run. A test that stops,
 * freezes or reconfigures a process, or needs the lab off, starts a stack of its own.
 */
public final class SharedLabStack implements ParameterResolver {

    /** The lab stack as the tests see it. */
    public record Lab(TestStack stack, StackTarget target) implements AutoCloseable {

        /** The header of a report of {@code experiment} on this stack, started at {@code startedAt} and ending now. */
        public ReportHeader header(String experiment, Instant startedAt) {
            return new ReportHeader(
                    experiment,
                    target.description(),
                    Machine.current(),
                    Versions.collect(TestStack.PROJECT, target.database()),
                    startedAt,
                    Instant.now());
        }

        @Override
        public void close() {
            target.close();
        }
    }

    /** The longest a test's request waits for an answer: the lab's strategies queue on one row. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedLabStack.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Lab.class;
    }

    @Override
    public Lab resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // the root context's store outlives every test class and closes what it holds when the run ends
        return context.getRoot().getStore(NAMESPACE).computeIfAbsent(Lab.class, type -> start(), Lab.class);
    }

    private static Lab start() {
        var stack = TestStack.create(workDirectory(), "lab_shared", 1);
        return new Lab(stack, StackTarget.start(stack.config().withLab(true), 1, REQUEST_TIMEOUT));
    }

    private static Path workDirectory() {
        try {
            // failsafe runs in the module directory: under target/, as the tests' other files
            return Files.createTempDirectory(
                    Files.createDirectories(Path.of("target").toAbsolutePath()), "shared-lab-stack-");
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
