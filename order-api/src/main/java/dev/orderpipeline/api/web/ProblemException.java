package dev.orderpipeline.api.web;

import org.jspecify.annotations.Nullable;
import org.springframework.web.ErrorResponseException;

/**
 * An expected failure that the API answers with a problem of a known kind. Features extend it for their own
 * cases; {@link ProblemHandler} renders it, headers included.
 */
public class ProblemException extends ErrorResponseException {

    private final ProblemKind kind;

    public ProblemException(ProblemKind kind, String detail) {
        this(kind, detail, null);
    }

    public ProblemException(ProblemKind kind, String detail, @Nullable Throwable cause) {
        super(kind.status(), kind.problem(detail), cause);
        this.kind = kind;
    }

    public ProblemKind kind() {
        return kind;
    }

    /** Adds an extra member to the problem body, e.g. the id the request named. */
    protected final void property(String name, Object value) {
        getBody().setProperty(name, value);
    }

    @Override
    public String getMessage() {
        return kind.title() + ": " + getBody().getDetail();
    }
}
