package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.lab.backlog.GroupWatch;
import dev.orderpipeline.lab.backlog.ResultsScan;
import dev.orderpipeline.lab.chaos.ChaosRun.PoisonFigures;
import dev.orderpipeline.lab.chaos.ChaosRun.TopicFigures;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/** What the topics hold about a run: its commands, results and dead letters (poison by kind and reason, real ones). */
final class TopicEvidence {

    static final String DLT_REASON_HEADER = "dlt-reason";

    /** The reason counted for a dead letter without a {@value #DLT_REASON_HEADER} header. */
    static final String NO_REASON = "(no dlt-reason header)";

    /** Where the worker sets aside what it cannot apply: the commands, the cart checkouts and the saga's steps. */
    private static final List<String> DEAD_LETTER_TOPICS =
            List.of(Topics.CHECKOUT_COMMANDS_DLT, Topics.CHECKOUT_CARTS_DLT, Topics.CHECKOUT_RESERVATIONS_DLT);

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern QUOTED = Pattern.compile("'[^']{0,40}'|\"[^\"]{0,80}\"");
    private static final Pattern HEX = Pattern.compile("\\b0x[0-9a-fA-F]+\\b");
    private static final Pattern NUMBER = Pattern.compile("(?<!UTF-)\\b\\d+\\b");
    private static final Pattern CODE = Pattern.compile("\\(code <n>\\)|CTRL-CHAR, code <n>");
    private static final int REASON_LENGTH = 160;

    private static final Duration DEAD_LETTER_WAIT = Duration.ofSeconds(60);

    private TopicEvidence() {}

    record Found(List<PoisonFigures> poison, TopicFigures topics) {}

    /** Every record of {@code topic} up to the end it had when the read began (no consumer group, nothing committed). */
    static void readAll(
            GroupWatch admin, String bootstrapServers, String topic, Consumer<ConsumerRecord<String, String>> each) {
        ResultsScan.read(bootstrapServers, topic, Map.of(), admin.endOffsets(topic), each);
    }

    /** What the topics hold about {@code run}'s {@code orders}, its products and decoys, its poison. */
    static Found read(
            FaultRun run,
            Set<UUID> orders,
            Set<UUID> decided,
            Map<PoisonKind, Integer> poisonSent,
            double poisonStartedAt) {
        var reader = run.topics();
        var bootstrapServers = run.stack().bootstrapServers();
        var keys = new HashSet<>(run.products());
        if (run.decoys() != null) {
            keys.add(run.decoys().product());
        }
        var poisonRecords =
                poisonSent.values().stream().mapToLong(Integer::longValue).sum();
        var last = new AtomicReference<Scan>();
        // the worker dead-letters the poison over some seconds: the dead-letter topics read again until all are in
        FaultRun.poll(DEAD_LETTER_WAIT, Duration.ofSeconds(2), () -> {
            last.set(new Scan(run.runTag(), keys, orders, poisonStartedAt, run.clock()));
            DEAD_LETTER_TOPICS.forEach(topic -> readAll(reader, bootstrapServers, topic, last.get()::deadLetter));
            return last.get().poisonFound() >= poisonRecords ? true : null;
        });
        var scan = last.get();
        readAll(reader, bootstrapServers, Topics.CHECKOUT_COMMANDS, scan::command);
        readAll(reader, bootstrapServers, Topics.CHECKOUT_CARTS, scan::cart);
        readAll(reader, bootstrapServers, Topics.CHECKOUT_RESULTS, scan::result);
        var poison = new ArrayList<PoisonFigures>();
        poisonSent.forEach((kind, sent) -> poison.add(scan.figures(kind, sent)));
        var topics = new TopicFigures(
                scan.commandOrders.size(),
                scan.commandOrders.stream()
                        .filter(order -> !decided.contains(order))
                        .count(),
                scan.duplicateResults,
                scan.untaggedReasons,
                scan.untaggedAt);
        return new Found(poison, topics);
    }

    private static final class Scan {

        private final String runTag;
        private final Set<String> keys = new HashSet<>();
        /** Cart checkouts are keyed by their order, reservations by their product. */
        private final Set<String> deadLetterKeys = new HashSet<>();

        private final Set<UUID> orders;
        private final double poisonStartedAt;
        private final RunClock clock;
        /** The run's orders named by valid commands, and its carts named by cart checkouts. */
        private final Set<UUID> commandOrders = new HashSet<>();

        private long duplicateResults;
        private final Map<PoisonKind, Long> poison = new EnumMap<>(PoisonKind.class);
        private final Map<PoisonKind, Map<String, Long>> reasons = new EnumMap<>(PoisonKind.class);
        private final Map<PoisonKind, Double> last = new EnumMap<>(PoisonKind.class);
        private final Map<String, Long> untaggedReasons = new HashMap<>();
        private final List<Double> untaggedAt = new ArrayList<>();

        Scan(String runTag, Set<UUID> keys, Set<UUID> orders, double poisonStartedAt, RunClock clock) {
            this.runTag = runTag;
            keys.forEach(key -> this.keys.add(key.toString()));
            deadLetterKeys.addAll(this.keys);
            orders.forEach(order -> deadLetterKeys.add(order.toString()));
            this.orders = orders;
            this.poisonStartedAt = poisonStartedAt;
            this.clock = clock;
        }

        void command(ConsumerRecord<String, String> record) {
            if (!keys.contains(text(record.key()))) {
                return;
            }
            var orderId = header(record, TopicFaults.TAG_HEADER) == null
                    ? parse(json(record.value()).path("orderId").asString(""))
                    : null;
            if (orderId != null && orders.contains(orderId)) {
                commandOrders.add(orderId);
            }
        }

        void cart(ConsumerRecord<String, String> record) {
            var orderId = parse(text(record.key()));
            if (orderId != null && orders.contains(orderId) && header(record, TopicFaults.TAG_HEADER) == null) {
                commandOrders.add(orderId);
            }
        }

        void result(ConsumerRecord<String, String> record) {
            var orderId = parse(text(record.key()));
            if (orderId != null && orders.contains(orderId)) {
                duplicateResults += json(record.value()).path("duplicate").asBoolean(false) ? 1 : 0;
            }
        }

        /** A poison record of the run by its kind, or a real command keyed by the run's products or orders. */
        void deadLetter(ConsumerRecord<String, String> record) {
            var reason = mask(header(record, DLT_REASON_HEADER));
            var tag = header(record, TopicFaults.TAG_HEADER);
            var kind = TopicFaults.kindOf(runTag, tag);
            var at = clock.secondsOfEpochMillis(record.timestamp());
            if (kind != null) {
                poison.merge(kind, 1L, Long::sum);
                reasons.computeIfAbsent(kind, key -> new HashMap<>()).merge(reason, 1L, Long::sum);
                last.merge(kind, at - poisonStartedAt, Math::max);
            } else if (tag == null && deadLetterKeys.contains(text(record.key()))) {
                untaggedReasons.merge(reason, 1L, Long::sum);
                untaggedAt.add(ChaosJudge.round(at));
            }
        }

        long poisonFound() {
            return poison.values().stream().mapToLong(Long::longValue).sum();
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

    /** A reason with ids, quoted tokens, bytes and numbers masked, so that the reasons of one kind count together. */
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

    private static @Nullable String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static String text(@Nullable String text) {
        return text == null ? "" : text;
    }

    private static JsonNode json(@Nullable String text) {
        try {
            return text == null ? MissingNode.getInstance() : TopicFaults.JSON.readTree(text);
        } catch (RuntimeException ex) {
            return MissingNode.getInstance();
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
