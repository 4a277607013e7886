package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.chaos.ChaosRun.PoisonFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.TopicFigures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the topics hold about a run, read back from the broker after it: the run's commands (to find any that the
 * database never decided), its results, and the dead letters of the commands and of the cart saga's topics (its poison
 * records by kind and reason, and any real command, cart checkout or step that was dead-lettered).
 */
final class TopicEvidence {

    /** The worker's header on a dead letter saying why. */
    static final String DLT_REASON_HEADER = "dlt-reason";

    /** The reason counted for a dead letter without a {@value #DLT_REASON_HEADER} header. */
    static final String NO_REASON = "(no dlt-reason header)";

    /** Where the worker sets aside what it cannot apply: the commands, the cart checkouts and the saga's steps. */
    static final List<String> DEAD_LETTER_TOPICS = Stream.of(PoisonKind.values())
            .map(PoisonKind::deadLetterTopic)
            .distinct()
            .toList();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern QUOTED = Pattern.compile("'[^']{0,40}'|\"[^\"]{0,80}\"");
    private static final Pattern HEX = Pattern.compile("\\b0x[0-9a-fA-F]+\\b");
    private static final Pattern NUMBER = Pattern.compile("(?<!UTF-)\\b\\d+\\b");
    private static final Pattern CODE = Pattern.compile("\\(code <n>\\)|CTRL-CHAR, code <n>");
    private static final int REASON_LENGTH = 160;

    private TopicEvidence() {}

    /**
     * The figures of the poison records and the topics.
     */
    record Found(List<PoisonFigures> poison, TopicFigures topics) {}

    /**
     * @param keys the run's products (the decoy included): the keys of its commands and dead letters
     * @param poisonStartedAt when the injection started (seconds since the start), to time the dead letters
     */
    static Found read(
            TopicReader reader,
            String runTag,
            Set<UUID> keys,
            Set<UUID> orders,
            Set<UUID> decided,
            Map<PoisonKind, Integer> poisonSent,
            double poisonStartedAt,
            RunClock clock) {
        var keyTexts = new HashSet<String>();
        keys.forEach(key -> keyTexts.add(key.toString()));
        var commands = commands(reader, keyTexts, orders);
        var results = results(reader, orders);
        // cart checkouts are keyed by their order, reservations by their product
        var deadLetterKeys = new HashSet<>(keyTexts);
        orders.forEach(order -> deadLetterKeys.add(order.toString()));
        var deadLetters = new DeadLetters(runTag, deadLetterKeys, poisonStartedAt, clock);
        DEAD_LETTER_TOPICS.forEach(topic -> reader.readAll(topic, deadLetters::add));
        var poison = new ArrayList<PoisonFigures>();
        poisonSent.forEach((kind, sent) -> poison.add(deadLetters.figures(kind, sent)));
        var topics = new TopicFigures(
                commands.records(),
                commands.orders().size(),
                commands.orders().stream()
                        .filter(order -> !decided.contains(order))
                        .count(),
                decided.stream()
                        .filter(order -> !commands.orders().contains(order))
                        .count(),
                results.records(),
                results.orders(),
                results.duplicates(),
                deadLetters.poison.values().stream().mapToLong(Long::longValue).sum(),
                deadLetters.untaggedAt.size(),
                deadLetters.untaggedReasons,
                deadLetters.untaggedAt);
        return new Found(poison, topics);
    }

    /**
     * The run's commands in the command topic.
     *
     * @param records records keyed by the run's products, poison included
     * @param orders the run's orders named by valid commands, and its carts named by cart checkouts
     */
    private record Commands(long records, Set<UUID> orders) {}

    private static Commands commands(TopicReader reader, Set<String> keys, Set<UUID> orders) {
        var records = new AtomicLong();
        var named = new HashSet<UUID>();
        reader.readAll(Topics.CHECKOUT_COMMANDS, record -> {
            if (!keys.contains(text(record.key()))) {
                return;
            }
            records.incrementAndGet();
            var orderId = header(record, PoisonRecords.TAG_HEADER) == null ? field(record.value(), "orderId") : null;
            if (orderId != null && orders.contains(orderId)) {
                named.add(orderId);
            }
        });
        // a cart's command is its cart checkout, keyed by its order
        reader.readAll(Topics.CHECKOUT_CARTS, record -> {
            var orderId = parse(text(record.key()));
            if (orderId != null && orders.contains(orderId) && header(record, PoisonRecords.TAG_HEADER) == null) {
                named.add(orderId);
            }
        });
        return new Commands(records.get(), named);
    }

    /**
     * The results of the run's orders.
     */
    private record Results(long records, long orders, long duplicates) {}

    private static Results results(TopicReader reader, Set<UUID> orders) {
        var records = new AtomicLong();
        var duplicates = new AtomicLong();
        var named = new HashSet<UUID>();
        reader.readAll(Topics.CHECKOUT_RESULTS, record -> {
            var orderId = parse(text(record.key()));
            if (orderId != null && orders.contains(orderId)) {
                records.incrementAndGet();
                named.add(orderId);
                duplicates.addAndGet(isDuplicate(record.value()) ? 1 : 0);
            }
        });
        return new Results(records.get(), named.size(), duplicates.get());
    }

    /** The dead letters of the run: its poison records by kind, and any real command keyed by its products. */
    private static final class DeadLetters {

        private final String runTag;
        private final Set<String> keys;
        private final double poisonStartedAt;
        private final RunClock clock;
        private final Map<PoisonKind, Long> poison = new EnumMap<>(PoisonKind.class);
        private final Map<PoisonKind, Map<String, Long>> reasons = new EnumMap<>(PoisonKind.class);
        private final Map<PoisonKind, Double> last = new EnumMap<>(PoisonKind.class);
        private final Map<String, Long> untaggedReasons = new HashMap<>();
        private final List<Double> untaggedAt = new ArrayList<>();

        DeadLetters(String runTag, Set<String> keys, double poisonStartedAt, RunClock clock) {
            this.runTag = runTag;
            this.keys = keys;
            this.poisonStartedAt = poisonStartedAt;
            this.clock = clock;
        }

        void add(ConsumerRecord<byte[], byte[]> record) {
            var reason = mask(header(record, DLT_REASON_HEADER));
            var tag = header(record, PoisonRecords.TAG_HEADER);
            var kind = PoisonRecords.kindOf(runTag, tag);
            var at = clock.secondsOfEpochMillis(record.timestamp());
            if (kind != null) {
                poison.merge(kind, 1L, Long::sum);
                reasons.computeIfAbsent(kind, key -> new HashMap<>()).merge(reason, 1L, Long::sum);
                last.merge(kind, at - poisonStartedAt, Math::max);
            } else if (tag == null && keys.contains(text(record.key()))) {
                untaggedReasons.merge(reason, 1L, Long::sum);
                untaggedAt.add(ChaosJudge.round(at));
            }
        }

        PoisonFigures figures(PoisonKind kind, int sent) {
            var lastOne = last.get(kind);
            return new PoisonFigures(
                    kind,
                    sent,
                    poison.getOrDefault(kind, 0L),
                    reasons.getOrDefault(kind, Map.of()),
                    lastOne == null ? null : ChaosJudge.round(lastOne));
        }
    }

    /**
     * A reason with what varies from record to record masked (ids, quoted tokens, bytes, numbers), so that the
     * reasons of one kind count together.
     */
    static String mask(@Nullable String reason) {
        if (reason == null) {
            return NO_REASON;
        }
        var masked = UUID_TEXT.matcher(reason).replaceAll("<id>");
        masked = QUOTED.matcher(masked).replaceAll("<token>");
        masked = HEX.matcher(masked).replaceAll("<byte>");
        masked = NUMBER.matcher(masked).replaceAll("<n>");
        masked = CODE.matcher(masked).replaceAll("<char>");
        return masked.length() <= REASON_LENGTH ? masked : masked.substring(0, REASON_LENGTH) + "...";
    }

    private static @Nullable String header(ConsumerRecord<byte[], byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static String text(byte @Nullable [] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }

    private static @Nullable UUID field(byte @Nullable [] json, String name) {
        if (json == null) {
            return null;
        }
        try {
            return parse(JSON.readTree(json).path(name).asString(""));
        } catch (RuntimeException ex) {
            // not JSON: not a command of the run
            return null;
        }
    }

    private static boolean isDuplicate(byte @Nullable [] json) {
        if (json == null) {
            return false;
        }
        try {
            return JSON.readTree(json).path("duplicate").asBoolean(false);
        } catch (RuntimeException ex) {
            return false;
        }
    }

    private static @Nullable UUID parse(String text) {
        try {
            return text.isEmpty() ? null : UUID.fromString(text);
        } catch (IllegalArgumentException ex) {
            return null;
        }
    }
}
