package dev.orderpipeline.lab;

import dev.orderpipeline.infra.DevelopmentTokens;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lab token}: a bearer token for curl against the local run (bin/run), signed with the development key the
 * launcher gives order-api. Only the token goes to standard output, so {@code TOKEN=$(bin/lab token --user alice)}
 * works.
 */
@Command(
        name = "token",
        sortOptions = false,
        usageHelpAutoWidth = true,
        mixinStandardHelpOptions = true,
        versionProvider = LabVersion.class,
        description = {
            "Prints a bearer token (a JWT signed with the development key) whose subject is the user id, for the local"
                    + " run (bin/run) and any order-api that verifies with the same development key:",
            "  TOKEN=$(bin/lab token --user alice)",
            "  curl -H \"Authorization: Bearer $TOKEN\" localhost:8080/api/orders/<id>",
            "Never valid against an API that verifies tokens of an identity provider (JWK set URI)."
        })
final class TokenCommand implements Callable<Integer> {

    /** The longest user id order-api accepts as a subject. */
    static final int MAX_USER_ID_LENGTH = 200;

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,9})([smhd])");

    @Option(
            order = 1,
            names = "--user",
            required = true,
            paramLabel = "USER-ID",
            description = "The caller's user id: the token's subject, the owner of the orders it creates.")
    String user = "";

    @Option(order = 2, names = "--admin", description = "Adds the role admin: creating products.")
    boolean admin;

    @Option(
            order = 3,
            names = "--ttl",
            paramLabel = "DURATION",
            description = "How long the token is valid: 90s, 30m, 12h or 2d. Default: 1h.")
    String ttl = "1h";

    @Option(
            order = 4,
            names = "--key",
            paramLabel = "KEY",
            description = "The development key to sign with. Default: $" + DevelopmentTokens.KEY_ENVIRONMENT_VARIABLE
                    + ", else the local run's default key.")
    @Nullable
    String key;

    @Spec
    @Nullable
    CommandSpec spec;

    @Override
    public Integer call() {
        var commandLine = java.util.Objects.requireNonNull(spec).commandLine();
        if (user.isBlank() || !user.equals(user.strip()) || user.length() > MAX_USER_ID_LENGTH) {
            throw new ParameterException(
                    commandLine,
                    "--user must be 1 to " + MAX_USER_ID_LENGTH + " characters without surrounding whitespace");
        }
        var lifetime = parseTtl(ttl);
        if (lifetime == null || lifetime.isNegative() || lifetime.isZero()) {
            throw new ParameterException(commandLine, "--ttl must be a positive duration like 30m or 12h: " + ttl);
        }
        DevelopmentTokens tokens;
        try {
            tokens = new DevelopmentTokens(key == null ? DevelopmentTokens.configuredKey() : key);
        } catch (IllegalArgumentException ex) {
            throw new ParameterException(commandLine, "--key: " + ex.getMessage(), ex);
        }
        var roles = admin ? List.of(DevelopmentTokens.ADMIN_ROLE) : List.<String>of();
        commandLine.getOut().println(tokens.mint(user, roles, lifetime));
        commandLine.getOut().flush();
        return 0;
    }

    static @Nullable Duration parseTtl(String text) {
        var matcher = SHORT_DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            return null;
        }
        var amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }
}
