package dev.orderpipeline.api.web;

import org.springframework.util.unit.DataSize;

/** The request body is, or says it is, larger than the API reads. Nothing was changed; the body was not read. */
final class PayloadTooLargeException extends ProblemException {

    PayloadTooLargeException(String detail, DataSize limit) {
        super(ProblemKind.PAYLOAD_TOO_LARGE, detail);
        property("maxBytes", limit.toBytes());
    }
}
