package dev.orderpipeline.lab.chaos;

import dev.orderpipeline.lab.chaos.ChaosJudge.Findings;
import dev.orderpipeline.lab.chaos.ChaosRun.Check;
import dev.orderpipeline.lab.chaos.ChaosRun.PoisonFigures;
import dev.orderpipeline.lab.report.Cells;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Records that are not valid checkout commands, cart checkouts or reservation steps ({@link PoisonKind}) written to
 * their topics among the real ones, with a plain producer ({@code acks=all}), keyed as the real ones are; each must end
 * in its topic's dead-letter topic with its reason, and the decoy orders they name must stay untouched.
 */
final class Poison {

    private Poison() {}

    static void inject(FaultRun run) {
        var count = run.settings().poisonRecords();
        run.once(FaultKind.POISON, count + " poison records", "poison records", start -> {
            var decoys = Objects.requireNonNull(run.decoys(), "decoys are prepared for poison");
            var sent = PoisonRecords.perKind(count);
            run.poison().record(sent, start);
            var records = PoisonRecords.build(
                    run.runTag(),
                    count,
                    run.products(),
                    decoys.product(),
                    decoys.orders(),
                    run.runTag().hashCode());
            send(run, records);
            var topics = new TreeMap<String, Integer>();
            sent.forEach((kind, howMany) -> topics.merge(kind.topic(), howMany, Integer::sum));
            return run.done(records.size() + " records (" + topics + ") keyed as the real ones there: " + sent);
        });
    }

    /** Writes the records and waits for every acknowledgement. */
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

    static Optional<Check> deadLetteredWithReason(Findings findings) {
        var poison = findings.evidence().poison();
        var sent = findings.evidence().sum(poison, PoisonFigures::sent);
        var found = findings.evidence().sum(poison, PoisonFigures::deadLettered);
        var withoutReason =
                findings.evidence().sum(poison, figures -> figures.reasons().getOrDefault(TopicEvidence.NO_REASON, 0L));
        return ChaosCriteria.check(
                "every poison record in its topic's .dlt with a dlt-reason header",
                sent + " of " + sent + ", 0 without reason",
                found + " of " + sent + ", " + withoutReason + " without reason",
                found == sent && withoutReason == 0);
    }

    static Optional<Check> decoysUntouched(Findings findings) {
        var decoy = findings.evidence().decoy();
        return ChaosCriteria.check(
                "the orders named by poison records are untouched",
                "stock unchanged, all CREATED, 0 payments, 0 idempotency rows",
                decoy == null
                        ? Cells.NOT_AVAILABLE
                        : "stock " + decoy.stockLeft() + " of " + decoy.initialStock() + ", " + decoy.notCreated()
                                + " not CREATED, " + decoy.payments() + " payments, " + decoy.processedRows()
                                + " idempotency rows",
                decoy != null && decoy.untouched());
    }
}
