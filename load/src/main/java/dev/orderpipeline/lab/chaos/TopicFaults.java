package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.contract.CartCheckoutCommand;
import dev.orderpipeline.contract.CartLine;
import dev.orderpipeline.contract.CheckoutCommand;
import dev.orderpipeline.contract.Headers;
import dev.orderpipeline.contract.ReservationCommand;
import dev.orderpipeline.contract.Topics;
import dev.orderpipeline.infra.AppProcess;
import dev.orderpipeline.lab.chaos.FaultRun.Done;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The faults of the topics. {@code replay}: the command and saga topics read again from offset 0 by a worker in fresh
 * groups {@code replay-<run tag>[-suffix]}, until they reach the ends the topics had when it started. {@code poison}:
 * invalid records written among the real ones, keyed as they are, tagged with {@value #TAG_HEADER}; those naming an
 * order name a decoy never checked out.
 */
final class TopicFaults {

    private TopicFaults() {}

    /** Each topic the worker consumes, by the suffix its consumer group has after the worker's group id. */
    private static final List<Map.Entry<String, String>> TOPICS_BY_GROUP_SUFFIX = List.of(
            Map.entry("", Topics.CHECKOUT_COMMANDS),
            Map.entry("-carts", Topics.CHECKOUT_CARTS),
            Map.entry("-reservations", Topics.CHECKOUT_RESERVATIONS),
            Map.entry("-reservation-replies", Topics.CHECKOUT_RESERVATION_REPLIES));

    record Replayed(String group, String topic, Map<Integer, Long> end) {

        long records() {
            return end.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    static Done replay(FaultRun run, int number, double start) {
        var group = "replay-" + run.runTag();
        var replayed = TOPICS_BY_GROUP_SUFFIX.stream()
                .map(topic -> new Replayed(
                        group + topic.getKey(), topic.getValue(), run.topics().endOffsets(topic.getValue())))
                .toList();
        @Nullable AppProcess worker = null;
        try {
            worker = run.stack()
                    .addWorker("checkout-worker-replay", List.of("--orderpipeline.worker.group-id=" + group));
            return follow(run, group, replayed, start, run.clock().now());
        } finally {
            if (worker != null && worker.isAlive()) {
                worker.stop();
            }
        }
    }

    private static Done follow(FaultRun run, String group, List<Replayed> replayed, double start, double ready) {
        var records = replayed.stream().mapToLong(Replayed::records).sum();
        var limit = ChaosSettings.REPLAY_LIMIT;
        var behind = new AtomicLong();
        if (FaultRun.poll(limit, FaultRun.POLL, () -> {
                    behind.set(behind(run, replayed));
                    return behind.get() == 0 ? true : null;
                })
                == null) {
            return new Done(
                    run.clock().now(),
                    "group " + group + " and its saga groups still " + behind + " of " + records + " records behind",
                    "the replay did not reach the end within " + limit.toSeconds() + " s",
                    null);
        }
        var caughtUp = run.clock().now();
        return run.done(String.format(
                Locale.ROOT,
                "a worker in group %s started in %.1f s and read all %d records the topics had (from offset 0: %s)"
                        + " in %.1f s more (%.0f records/s) beside the live groups",
                group,
                ready - start,
                records,
                String.join(
                        ", ",
                        replayed.stream()
                                .map(each -> String.format(Locale.ROOT, "%,d of %s", each.records(), each.topic()))
                                .toList()),
                caughtUp - ready,
                records / Math.max(0.001, caughtUp - ready)));
    }

    private static long behind(FaultRun run, List<Replayed> replayed) {
        var behind = 0L;
        for (var each : replayed) {
            var committed = run.topics().committed(each.group(), each.topic());
            behind += each.end().entrySet().stream()
                    .mapToLong(entry -> Math.max(0, entry.getValue() - committed.getOrDefault(entry.getKey(), 0L)))
                    .sum();
        }
        return behind;
    }

    /** Header on every poison record: {@code <run tag>/<kind label>}. */
    static final String TAG_HEADER = "lab-poison";

    static final JsonMapper JSON = JsonMapper.builder().build();

    static Done poison(FaultRun run, int number, double start) {
        var count = run.settings().poisonRecords();
        var decoys = Objects.requireNonNull(run.decoys(), "decoys are prepared for poison");
        var records = build(
                run.runTag(),
                count,
                run.products(),
                decoys.product(),
                decoys.orders(),
                run.runTag().hashCode());
        send(run, records);
        // each kind's topic and count: the poison table
        return run.done(records.size() + " records of " + PoisonKind.values().length + " kinds keyed as the real ones"
                + " there");
    }

    private static void send(FaultRun run, List<ProducerRecord<byte[], byte[]>> records) {
        var properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, run.stack().bootstrapServers());
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, "orderpipeline-lab-poison");
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        // bounded: a broker that never comes back fails the injection (the first send gives up after 10 s) instead of
        // blocking every one of the records for a minute each
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        try (var producer = new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer())) {
            var acknowledgements = new ArrayList<Future<RecordMetadata>>();
            records.forEach(record -> acknowledgements.add(producer.send(record)));
            producer.flush();
            for (var acknowledgement : acknowledgements) {
                acknowledgement.get(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        } catch (ExecutionException | TimeoutException ex) {
            throw new IllegalStateException(ex.getMessage(), ex);
        }
    }

    static List<ProducerRecord<byte[], byte[]>> build(
            String runTag,
            int count,
            List<UUID> hotProducts,
            UUID decoyProduct,
            List<PreparedOrder> decoys,
            long seed) {
        if (hotProducts.isEmpty() || decoys.isEmpty()) {
            throw new IllegalArgumentException("poison needs hot products and decoy orders");
        }
        var random = new Random(seed);
        var targets = new Targets(hotProducts, decoyProduct, Instant.now());
        var records = new ArrayList<ProducerRecord<byte[], byte[]>>(count);
        perKind(count).forEach((kind, howMany) -> {
            for (var index = 0; index < howMany; index++) {
                var hot = hotProducts.get(random.nextInt(hotProducts.size()));
                var record = targets.poison(kind, index, hot, decoys.get(index % decoys.size()), random);
                header(record, TAG_HEADER, runTag + "/" + kind.label());
                records.add(record);
            }
        });
        return records;
    }

    private record Targets(List<UUID> hotProducts, UUID decoyProduct, Instant requestedAt) {

        /** Poison record {@code index} of its kind, keyed by {@code hot} where its kind's topic is keyed by product. */
        ProducerRecord<byte[], byte[]> poison(
                PoisonKind kind, int index, UUID hot, PreparedOrder decoy, Random random) {
            var orderId = decoy.orderId();
            return switch (kind) {
                case GARBAGE_BYTES, RESERVATION_GARBAGE_BYTES -> record(kind, hot, garbage(random), null, null, null);
                case INVALID_JSON -> record(kind, hot, invalidJson(index, decoy), null, null, null);
                case ZERO_QUANTITY -> command(kind, decoyProduct, fields(decoy, decoyProduct, 0), orderId);
                case MISSING_ORDER_ID -> {
                    var command = fields(decoy, hot, 1);
                    command.remove("orderId");
                    yield record(kind, hot, json(command), null, null, null);
                }
                case PRODUCT_MISMATCH -> command(kind, hot, fields(decoy, hot, 1), orderId);
                case CART_INVALID_JSON ->
                    record(kind, orderId, invalidCart(index, decoy), null, CartCheckoutCommand.TYPE, orderId);
                case CART_NOT_A_CART -> {
                    var lines = List.of(
                            new CartLine(1, hotProducts.getFirst(), 1),
                            new CartLine(2, hotProducts.size() > 1 ? hotProducts.getLast() : decoyProduct, 1));
                    var cart = CartCheckoutCommand.of(orderId, decoy.userId(), lines, requestedAt);
                    yield record(kind, orderId, json(cart), cart.commandId(), CartCheckoutCommand.TYPE, orderId);
                }
                case RESERVATION_NO_SUCH_LINE -> {
                    var step = ReservationCommand.of(
                            ReservationCommand.Action.RESERVE, orderId, new CartLine(1, hot, 1), requestedAt);
                    yield record(
                            kind,
                            hot,
                            json(step),
                            step.commandId(),
                            step.action().type(),
                            orderId);
                }
            };
        }

        /** The fields of a checkout command, as the API writes them; the command id is the order's. */
        private Map<String, Object> fields(PreparedOrder order, UUID productId, int quantity) {
            var command = new LinkedHashMap<String, Object>();
            command.put("commandId", CheckoutCommand.idFor(order.orderId()).toString());
            command.put("orderId", order.orderId().toString());
            command.put("productId", productId.toString());
            command.put("userId", order.userId());
            command.put("quantity", quantity);
            command.put("requestedAt", requestedAt.toString());
            return command;
        }
    }

    static Map<PoisonKind, Integer> perKind(int count) {
        var kinds = PoisonKind.values();
        var share = count / kinds.length;
        var split = new EnumMap<PoisonKind, Integer>(PoisonKind.class);
        for (var kind : kinds) {
            split.put(kind, share);
        }
        split.merge(PoisonKind.GARBAGE_BYTES, count - share * kinds.length, Integer::sum);
        return split;
    }

    /** The kind a {@value #TAG_HEADER} header value names, when it belongs to {@code runTag}; else null. */
    static @Nullable PoisonKind kindOf(String runTag, @Nullable String tag) {
        if (tag == null || !tag.startsWith(runTag + "/")) {
            return null;
        }
        var label = tag.substring(runTag.length() + 1);
        return Arrays.stream(PoisonKind.values())
                .filter(kind -> kind.label().equals(label))
                .findFirst()
                .orElse(null);
    }

    private static ProducerRecord<byte[], byte[]> command(
            PoisonKind kind, UUID key, Map<String, Object> command, UUID orderId) {
        return record(kind, key, json(command), CheckoutCommand.idFor(orderId), CheckoutCommand.TYPE, null);
    }

    private static ProducerRecord<byte[], byte[]> record(
            PoisonKind kind,
            UUID key,
            byte[] value,
            @Nullable UUID commandId,
            @Nullable String type,
            @Nullable UUID orderId) {
        var record = new ProducerRecord<>(kind.topic(), key.toString().getBytes(StandardCharsets.UTF_8), value);
        header(record, Headers.COMMAND_ID, commandId);
        header(record, Headers.COMMAND_TYPE, type);
        header(record, Headers.ORDER_ID, orderId);
        return record;
    }

    private static void header(ProducerRecord<byte[], byte[]> record, String name, @Nullable Object value) {
        if (value != null) {
            record.headers().add(name, value.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static byte[] invalidCart(int index, PreparedOrder decoy) {
        var text = index % 2 == 0
                ? "{\"commandId\":\"" + CheckoutCommand.idFor(decoy.orderId()) + "\",\"lines\":[{\"lineNo\":1,"
                : "{\"orderId\": " + decoy.orderId() + ", \"lines\": []}";
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] garbage(Random random) {
        var bytes = new byte[1 + random.nextInt(256)];
        random.nextBytes(bytes);
        // 0xC0 starts no UTF-8 sequence and no byte-order mark: no draw can read as JSON text
        bytes[0] = (byte) 0xC0;
        return bytes;
    }

    private static byte[] invalidJson(int index, PreparedOrder decoy) {
        var text = switch (index % 3) {
            case 0 ->
                "{\"commandId\":\"" + CheckoutCommand.idFor(decoy.orderId()) + "\",\"orderId\":\"" + decoy.orderId();
            case 1 -> "{\"orderId\": " + decoy.orderId() + ", \"quantity\": 1}";
            default -> "checkout " + decoy.orderId() + " please";
        };
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] json(Object value) {
        return JSON.writeValueAsBytes(value);
    }
}
