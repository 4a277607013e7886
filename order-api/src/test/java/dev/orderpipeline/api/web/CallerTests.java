package dev.orderpipeline.api.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a user id may be: the rule the token's subject is held to before anything is read or written with it. */
class CallerTests {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "alice",
                "auth0|65f1c2d3e4",
                "alice@example.test",
                "f47ac10b-58cc-4372-a567-0e02b2c3d479",
                "zoë 日本 🙂",
            })
    void acceptsPlainTextIds(String userId) {
        assertThat(Caller.whyNotAUserId(userId)).isEmpty();
        assertThat(new Caller(userId).userId()).isEqualTo(userId);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "  ",
                "ali\u0000ce",
                "bob\u001b[31m",
                "carol\r\nadmin",
                "dave\u007f",
                "erin\u0085",
                "frank\u009b",
                "grace\ud800",
                "\udc00heidi",
                " ivan",
                "judy\t",
            })
    void refusesIdsThatAreNotPlainText(String userId) {
        assertThat(Caller.whyNotAUserId(userId)).isPresent();
        assertThatIllegalArgumentException().isThrownBy(() -> new Caller(userId));
    }

    @ParameterizedTest
    @ValueSource(ints = {Caller.MAX_USER_ID_LENGTH + 1, 256, 10_000})
    void refusesIdsLongerThanTheLimit(int length) {
        assertThat(Caller.whyNotAUserId("u".repeat(length)))
                .hasValueSatisfying(reason -> assertThat(reason).contains("longer than " + Caller.MAX_USER_ID_LENGTH));
        assertThat(Caller.whyNotAUserId("u".repeat(Caller.MAX_USER_ID_LENGTH))).isEmpty();
    }
}
