package dev.orderpipeline.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/** The firewall's rules without regular expressions give the expressions' verdict on every string. */
class RequestTextTests {

    /** ASCII, tab and line breaks, other control characters, unassigned code points, surrogates, paired or not. */
    private static final List<String> PIECES = List.of(
            "a",
            "Z",
            "0",
            " ",
            "~",
            "=",
            "\t",
            "\n",
            "\r",
            "\u0000",
            "\u007f",
            "\u0085",
            "\u009f",
            "\u00a0",
            "é",
            "\u0378",
            "\uffff",
            "\ue000",
            "\u200b",
            "\ud83d\ude00",
            "\ud800",
            "\udc00",
            "\u2028",
            "Ω");

    @Test
    void namesAndValuesAreJudgedAsTheDefaultExpressionsJudgeThem() {
        for (var candidate : TextSamples.of(42, 50_000, 7, PIECES)) {
            assertThat(RequestText.isAllowedName(candidate))
                    .as("name %s", candidate.codePoints().boxed().toList())
                    .isEqualTo(StrictHttpFirewall.ALLOWED_HEADER_NAMES.test(candidate));
            assertThat(RequestText.isAllowedValue(candidate))
                    .as("value %s", candidate.codePoints().boxed().toList())
                    .isEqualTo(StrictHttpFirewall.ALLOWED_HEADER_VALUES.test(candidate));
        }
    }

    @Test
    void refusesControlCharactersAndUnassignedCodePoints() {
        assertThat(RequestText.isAllowedValue("Bearer abc.def")).isTrue();
        assertThat(RequestText.isAllowedValue("a\tb")).isTrue();
        assertThat(RequestText.isAllowedName("a\tb")).isFalse();
        assertThat(RequestText.isAllowedValue("a\r\nX-Injected: 1")).isFalse();
        assertThat(RequestText.isAllowedValue("\u0378")).isFalse();
        assertThat(RequestText.isAllowedValue("\ud83d\ude00")).isTrue();
    }
}
