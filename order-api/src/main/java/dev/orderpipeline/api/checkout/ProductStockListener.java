package dev.orderpipeline.api.checkout;

import dev.orderpipeline.contract.ProductStock;
import dev.orderpipeline.contract.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.annotation.TopicPartition;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the worker's stock topic into the {@link StockDoor}: every partition, from the beginning, without a group
 * (see {@link CheckoutKafkaConfiguration}). A record that does not read as a stock is logged and skipped: the door
 * then knows nothing of that product, and its checkouts go to the worker.
 */
@Component
final class ProductStockListener {

    static final String LISTENER_ID = "product-stock";

    private static final Logger log = LoggerFactory.getLogger(ProductStockListener.class);

    private final StockDoor door;
    private final JsonMapper json;

    ProductStockListener(StockDoor door, JsonMapper json) {
        this.door = door;
        this.json = json;
    }

    @KafkaListener(
            id = LISTENER_ID,
            idIsGroup = false,
            clientIdPrefix = "order-api-stock",
            topicPartitions =
                    @TopicPartition(
                            topic = Topics.PRODUCT_STOCK,
                            partitions = "#{@" + CheckoutKafkaConfiguration.STOCK_PARTITIONS + ".ids()}"),
            containerFactory = CheckoutKafkaConfiguration.STOCK_CONTAINER_FACTORY)
    void onStock(ConsumerRecord<String, byte @Nullable []> record) {
        var value = record.value();
        if (value == null) {
            // a tombstone: nothing to learn
            return;
        }
        try {
            door.learned(json.readValue(value, ProductStock.class));
        } catch (JacksonException | IllegalArgumentException ex) {
            log.warn(
                    "Skipping record {}-{}@{}: not a product stock",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    ex);
        }
    }
}
