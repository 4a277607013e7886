package dev.orderpipeline.lab.backlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StackSessionTests {

    @Test
    void givesEachPropertyTheLastValueBecauseSpringWouldJoinRepeatedOnesIntoAList() {
        var merged = StackSession.merge(List.of(
                "--spring.datasource.url=jdbc:postgresql://db/a",
                "--orderpipeline.topics.command-partitions=6",
                "--debug",
                "--orderpipeline.worker.group-id=g",
                "--orderpipeline.topics.command-partitions=1"));

        assertThat(merged)
                .containsExactly(
                        "--spring.datasource.url=jdbc:postgresql://db/a",
                        "--debug",
                        "--orderpipeline.worker.group-id=g",
                        "--orderpipeline.topics.command-partitions=1");
    }
}
