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
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the topics hold about a run, read back from the broker after it: the run's commands (to find any that the
 * database never decided), its results, and the dead letters (its poison records by kind and reason, and any real
 * command that was dead-lettered).
 */
final class TopicEvidence {

    /** The worker's header on a dead letter saying why. */
    static final String DLT_REASON_HEADER = "dlt-reason";

    /** The reason counted for a dead letter without a {@value #DLT_REASON_HEADER} header. */
    static final String NO_REASON = "(no dlt-reason header)";

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
     *
     * @param poison per kind
     * @param topics counts over the three topics
     */
    record Found(List<PoisonFigures> poison, TopicFigures topics) {}

    /**
     * @param reader the broker
     * @param runTag the run's tag, in its poison records' header
     * @param keys the run's products (the decoy included): the keys of its commands and dead letters
     * @param orders the run's orders
     * @param decided the run's orders the database decided
     * @param poisonSent how many poison records of each kind were written (empty if none)
     * @param poisonStartedAt when the injection started (seconds since the start), to time the dead letters
     * @param clock the run's clock
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

        var commandRecords = new long[1];
        var commandOrders = new HashSet<UUID>();
        reader.readAll(Topics.CHECKOUT_COMMANDS, record -> {
            if (!keyTexts.contains(text(record.key()))) {
                return;
            }
            commandRecords[0]++;
            if (header(record, PoisonRecords.TAG_HEADER) != null) {
                return;
            }
            var orderId = field(record.value(), "orderId");
            if (orderId != null && orders.contains(orderId)) {
                commandOrders.add(orderId);
            }
        });

        var results = new long[2];
        var resultOrders = new HashSet<UUID>();
        reader.readAll(Topics.CHECKOUT_RESULTS, record -> {
            var orderId = parse(text(record.key()));
            if (orderId == null || !orders.contains(orderId)) {
                return;
            }
            results[0]++;
            resultOrders.add(orderId);
            if (isDuplicate(record.value())) {
                results[1]++;
            }
        });

        var deadLettered = new EnumMap<PoisonKind, Long>(PoisonKind.class);
        var reasons = new EnumMap<PoisonKind, Map<String, Long>>(PoisonKind.class);
        var lastDeadLetter = new EnumMap<PoisonKind, Double>(PoisonKind.class);
        var untagged = new long[1];
        var untaggedReasons = new HashMap<String, Long>();
        var untaggedAt = new ArrayList<Double>();
        reader.readAll(Topics.CHECKOUT_COMMANDS_DLT, record -> {
            var reason = header(record, DLT_REASON_HEADER);
            var kind = PoisonRecords.kindOf(runTag, header(record, PoisonRecords.TAG_HEADER));
            if (kind != null) {
                deadLettered.merge(kind, 1L, Long::sum);
                reasons.computeIfAbsent(kind, key -> new HashMap<>()).merge(mask(reason), 1L, Long::sum);
                lastDeadLetter.merge(kind, clock.secondsOfEpochMillis(record.timestamp()) - poisonStartedAt, Math::max);
            } else if (header(record, PoisonRecords.TAG_HEADER) == null && keyTexts.contains(text(record.key()))) {
                untagged[0]++;
                untaggedReasons.merge(mask(reason), 1L, Long::sum);
                untaggedAt.add(ChaosJudge.round(clock.secondsOfEpochMillis(record.timestamp())));
            }
        });

        var poison = new ArrayList<PoisonFigures>();
        poisonSent.forEach((kind, sent) -> poison.add(new PoisonFigures(
                kind,
                sent,
                deadLettered.getOrDefault(kind, 0L),
                reasons.getOrDefault(kind, Map.of()),
                lastDeadLetter.containsKey(kind) ? ChaosJudge.round(lastDeadLetter.get(kind)) : null)));

        var notDecided =
                commandOrders.stream().filter(order -> !decided.contains(order)).count();
        var notInTopic =
                decided.stream().filter(order -> !commandOrders.contains(order)).count();
        var topics = new TopicFigures(
                commandRecords[0],
                commandOrders.size(),
                notDecided,
                notInTopic,
                results[0],
                resultOrders.size(),
                results[1],
                deadLettered.values().stream().mapToLong(Long::longValue).sum(),
                untagged[0],
                untaggedReasons,
                untaggedAt);
        return new Found(poison, topics);
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
