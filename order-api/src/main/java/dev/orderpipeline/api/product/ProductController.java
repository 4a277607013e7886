package dev.orderpipeline.api.product;

import jakarta.validation.Valid;
import java.net.URI;
import java.util.UUID;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/products")
class ProductController {

    private final ProductRepository products;

    ProductController(ProductRepository products) {
        this.products = products;
    }

    @PostMapping
    ResponseEntity<Product> create(@Valid @RequestBody CreateProductRequest request) {
        var product = products.insert(request.toNewProduct());
        return ResponseEntity.created(URI.create("/api/products/" + product.id()))
                .body(product);
    }

    @GetMapping("/{id}")
    Product get(@PathVariable UUID id) {
        return products.findById(id).orElseThrow(() -> new ProductNotFoundException(id));
    }
}
