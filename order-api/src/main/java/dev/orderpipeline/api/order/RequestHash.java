package dev.orderpipeline.api.order;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/** The SHA-256 of a request's canonical text: what tells "the same request again" from "another request". */
record RequestHash(byte[] bytes) {

    private static final int LENGTH = 32;

    RequestHash {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a request hash has " + LENGTH + " bytes, this one " + bytes.length);
        }
        bytes = bytes.clone();
    }

    static RequestHash of(byte[] bytes) {
        return new RequestHash(bytes);
    }

    static RequestHash ofText(String canonical) {
        try {
            return new RequestHash(
                    MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("every Java runtime has SHA-256", ex);
        }
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof RequestHash hash && MessageDigest.isEqual(bytes, hash.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(bytes);
    }
}
