package dev.orderpipeline.lab.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.orderpipeline.lab.pipeline.Strategies;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CompareCommandTests {

    private static CompareSettings settings(String... args) {
        var command = new CompareCommand();
        new CommandLine(command).parseArgs(args);
        return command.settings();
    }

    @Test
    void comparesOrdersOfOneProductByDefault() {
        var settings = settings();

        assertThat(settings.carts()).isNull();
        assertThat(settings.strategies()).isEqualTo(Strategies.ALL);
    }

    @Test
    void theCartsWorkloadTakesItsShapeAndItsOwnStrategies() {
        var settings = settings("--workload", "carts", "--products", "4", "--lines", "3");

        assertThat(settings.carts()).isEqualTo(new CompareSettings.Carts(4, 3));
        assertThat(settings.strategies()).isEqualTo(CompareExperiment.CART_STRATEGIES);
        assertThat(settings("--workload", "carts").carts()).isEqualTo(new CompareSettings.Carts(3, 2));
    }

    @Test
    void refusesTheOptionsAndStrategiesOfTheOtherWorkload() {
        assertThatThrownBy(() -> settings("--products", "3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("valid only with --workload carts");
        assertThatThrownBy(() -> settings("--strategies", "kafka,saga"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[saga] are not of --workload orders");
        assertThatThrownBy(() -> settings("--workload", "carts", "--strategies", "saga,kafka"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[kafka] are not of --workload carts");
        assertThatThrownBy(() -> settings("--workload", "baskets"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orders or carts");
    }
}
