package dev.orderpipeline.api.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.orderpipeline.api.ApiTestSupport;
import dev.orderpipeline.api.order.OrderNotFoundException;
import dev.orderpipeline.api.order.OrderStatus;
import dev.orderpipeline.api.web.Caller;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The steps every strategy shares, against the real tables. */
class CheckoutStepsTests extends ApiTestSupport {

    @Autowired
    private CheckoutSteps steps;

    @Test
    void loadsTheCallersCreatedOrder() {
        var alice = newUser();
        var orderId = createOrderId(alice);

        var order = steps.loadCheckoutable(orderId, new Caller(alice));

        assertThat(order.id()).isEqualTo(orderId);
        assertThat(order.status()).isEqualTo(OrderStatus.CREATED);
    }

    @Test
    void treatsSomeoneElsesOrderAsMissing() {
        var orderId = createOrderId(newUser());

        assertThatExceptionOfType(OrderNotFoundException.class)
                .isThrownBy(() -> steps.loadCheckoutable(orderId, new Caller(newUser())));
        assertThatExceptionOfType(OrderNotFoundException.class)
                .isThrownBy(() -> steps.loadCheckoutable(UUID.randomUUID(), new Caller(newUser())));
    }

    @Test
    void refusesAnOrderThatIsNoLongerCreated() {
        var alice = newUser();
        var orderId = createOrderId(alice);
        jdbc.sql("UPDATE orders SET status = 'PROCESSING' WHERE id = :id")
                .param("id", orderId)
                .update();

        assertThatExceptionOfType(OrderNotCheckoutableException.class)
                .isThrownBy(() -> steps.loadCheckoutable(orderId, new Caller(alice)))
                .satisfies(ex ->
                        assertThat(ex.getBody().getProperties()).containsEntry("orderStatus", OrderStatus.PROCESSING));
    }

    @Test
    void pricesThePaymentAtUnitPriceTimesQuantity() {
        var alice = newUser();
        var order = createOrder(alice, createProduct(10, "12.35"), 3);
        var loaded = steps.loadCheckoutable(UUID.fromString(order.get("id").asString()), new Caller(alice));

        var priced = steps.price(loaded);

        assertThat(priced.order()).isEqualTo(loaded);
        assertThat(priced.amount()).isEqualByComparingTo("37.05");
        assertThat(priced.amount().scale()).isEqualTo(2);
    }
}
