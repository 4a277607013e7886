package dev.orderpipeline.api.order;

import dev.orderpipeline.api.product.ProductNotFoundException;
import dev.orderpipeline.api.web.Caller;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.Objects;
import java.util.UUID;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/orders")
class OrderController {

    private final OrderRepository orders;

    OrderController(OrderRepository orders) {
        this.orders = orders;
    }

    @PostMapping
    ResponseEntity<Order> create(Caller caller, @Valid @RequestBody CreateOrderRequest request) {
        var order = orders.insert(request.toNewOrder(caller))
                .orElseThrow(() -> new ProductNotFoundException(Objects.requireNonNull(request.productId())));
        return ResponseEntity.created(URI.create("/api/orders/" + order.id())).body(order);
    }

    @GetMapping("/{id}")
    Order get(Caller caller, @PathVariable UUID id) {
        return orders.findOwned(id, caller.userId()).orElseThrow(() -> new OrderNotFoundException(id));
    }
}
