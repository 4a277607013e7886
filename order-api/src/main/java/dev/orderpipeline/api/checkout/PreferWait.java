package dev.orderpipeline.api.checkout;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Reads the {@code wait} preference of an RFC 7240 {@code Prefer} header. As the RFC asks, a preference that
 * cannot be honoured or understood is ignored rather than refused.
 */
final class PreferWait {

    static final String PREFER = "Prefer";
    static final String PREFERENCE_APPLIED = "Preference-Applied";

    private PreferWait() {}

    /**
     * The wait asked for, capped at {@code max}, or {@code null} when none (or zero) is asked.
     *
     * @param prefer the {@code Prefer} header values, comma-joined as the servlet API gives them
     */
    static @Nullable Duration parse(@Nullable String prefer, Duration max) {
        if (prefer == null) {
            return null;
        }
        for (var preference : prefer.split(",")) {
            // parameters after ';' do not apply to wait
            var token = preference.split(";", 2)[0];
            var equals = token.indexOf('=');
            if (equals < 0 || !token.substring(0, equals).strip().equalsIgnoreCase("wait")) {
                continue;
            }
            var value = unquote(token.substring(equals + 1).strip());
            if (!value.matches("[0-9]+")) {
                return null;
            }
            var capSeconds = max.toSeconds();
            // more digits than a long holds is still just "longer than the cap"
            var seconds = value.length() > 18 ? capSeconds : Math.min(Long.parseLong(value), capSeconds);
            return seconds == 0 ? null : Duration.ofSeconds(seconds);
        }
        return null;
    }

    /** The {@code Preference-Applied} value for an honoured wait. */
    static String applied(Duration wait) {
        return "wait=" + wait.toSeconds();
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1)
                : value;
    }
}
