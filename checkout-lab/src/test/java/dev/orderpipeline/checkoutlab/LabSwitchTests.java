package dev.orderpipeline.checkoutlab;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;

/** With the lab switched on, the instance says so, and it runs on the lab's own database, relaxed for it. */
class LabSwitchTests extends LabTestSupport {

    @Autowired
    private Environment environment;

    @Test
    void saysInItsInfoThatTheLabIsOnAndWhichStrategiesItRuns() {
        var info = management.get("/actuator/info");

        assertThat(info.status()).as(info::toString).isEqualTo(200);
        var lab = info.json().get("lab");
        assertThat(lab).as(info::toString).isNotNull();
        assertThat(lab.get("enabled").asBoolean()).isTrue();
        assertThat(lab.get("strategies").values())
                .extracting(JsonNode::asString)
                .containsExactlyInAnyOrderElementsOf(STRATEGIES);
    }

    @Test
    void migratesItsOwnDatabaseAndRelaxesItsSchemaThere() {
        assertThat(environment.getProperty("spring.datasource.url")).isEqualTo(LAB_DATABASE_URL);
        // the lab's callback dropped the production schema's one payment per order, and allows the lab's statuses
        assertThat(jdbc.sql("SELECT count(*) FROM pg_constraint WHERE conname = 'payment_order_unique'")
                        .query(Long.class)
                        .single())
                .isZero();
        assertThat(jdbc.sql("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'orders_status_known'")
                        .query(String.class)
                        .single())
                .contains("PROCESSING");
    }
}
