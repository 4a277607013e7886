package dev.orderpipeline.lab;

import dev.orderpipeline.lab.backlog.KeyDistribution;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/**
 * The options more than one experiment has, each declared once, as picocli mixins: a command adds one with {@code
 * @Mixin}, giving its own default to the constructor where experiments differ.
 */
public final class Options {

    private Options() {}

    /** {@code --strategies}: which of the experiment's strategies run, in that order. */
    public static final class Strategies {

        @Option(
                order = 6,
                names = "--strategies",
                paramLabel = "NAME",
                split = ",",
                description = "Strategies to run, comma-separated; default: all of naive, naive-tx, app-lock,"
                        + " db-atomic, for-update, optimistic, serializable, status-claim, kafka (compare --workload"
                        + " carts: saga, cart-for-update, cart-for-update-unsorted); those the API does not know are"
                        + " skipped.",
                showDefaultValue = Visibility.NEVER)
        @Nullable
        List<String> names;

        /** The strategies named, or {@code defaults} when none were. */
        public List<String> or(List<String> defaults) {
            return names == null ? defaults : dev.orderpipeline.lab.pipeline.Strategies.named(names);
        }
    }

    /** {@code --warmup}: an unreported run before the measured ones, its size in the experiment's unit. */
    public static final class Warmup {

        @Option(
                order = 10,
                names = "--warmup",
                paramLabel = "N",
                description = "Before the measured runs, not reported (JIT, connections): compare, checkouts per"
                        + " strategy; soak, seconds per strategy at the first rate; group, checkouts (uniform:1000)"
                        + " drained whenever workers joined; 0: none.")
        int size;

        public Warmup(int size) {
            this.size = size;
        }

        public int size() {
            return size;
        }
    }

    /** {@code --keys}: how the checkouts spread over products, a run per distribution. */
    public static final class Keys {

        @Option(
                order = 5,
                names = "--keys",
                paramLabel = "DISTRIBUTION",
                split = ",",
                converter = KeyDistribution.Converter.class,
                description = "How the checkouts spread over products, each distribution a run of its own: hot (one"
                        + " product), uniform:N, zipf:N:s.")
        List<KeyDistribution> keys;

        public Keys(KeyDistribution first) {
            keys = new ArrayList<>(List.of(first));
        }

        public List<KeyDistribution> all() {
            return List.copyOf(keys);
        }
    }

    /** The backlog experiments' (drain, group): the size of a backlog, how often the lag is read, how long it may take. */
    public static final class Backlog {

        @Option(order = 1, names = "--commands", paramLabel = "N", description = "Checkouts in each backlog.")
        int commands;

        @Option(
                order = 8,
                names = "--lag-interval-ms",
                paramLabel = "MS",
                description = "How often the group's offsets are read (the resolution of the lag over time).")
        int lagIntervalMillis;

        @Option(
                order = 9,
                names = "--timeout",
                paramLabel = "SECONDS",
                description = "A backlog fails if the group's lag is not zero by then.")
        int timeoutSeconds;

        public Backlog(int commands, int lagIntervalMillis, int timeoutSeconds) {
            this.commands = commands;
            this.lagIntervalMillis = lagIntervalMillis;
            this.timeoutSeconds = timeoutSeconds;
        }

        public int commands() {
            return commands;
        }

        public Duration lagInterval() {
            return Duration.ofMillis(lagIntervalMillis);
        }

        public Duration timeout() {
            return Duration.ofSeconds(timeoutSeconds);
        }
    }
}
