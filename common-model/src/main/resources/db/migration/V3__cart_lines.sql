-- Carts: an order of several products. A single-product order stays as it was (product_id and quantity on the
-- order row, decided by one checkout command); a cart keeps its products in order_line, one row per product, and
-- is decided by a reservation saga over the products' partitions:
--   line PENDING -> RESERVED (units taken from stock, held for the order) | REFUSED (not enough stock)
--                 | CANCELLED (the order was decided before this line's reservation arrived: nothing taken);
--   RESERVED -> SOLD (the order completed) | RELEASING (the order was rejected; a release step is on its way)
--   RELEASING -> RELEASED (the units are back in stock).
-- Units held by a cart are the quantities of its RESERVED and RELEASING lines; per product,
-- stock + sold + held == initial, and nothing stays held once every order is final.

ALTER TABLE orders ALTER COLUMN product_id DROP NOT NULL;
ALTER TABLE orders ALTER COLUMN quantity DROP NOT NULL;
ALTER TABLE orders ADD CONSTRAINT orders_single_product_or_cart CHECK ((product_id IS NULL) = (quantity IS NULL));

-- When the cart's saga gives up waiting for its reservations; set by the coordinator when the saga starts
ALTER TABLE orders ADD COLUMN checkout_deadline timestamptz;
CREATE INDEX orders_checkout_deadline_idx ON orders (checkout_deadline) WHERE status = 'CREATED';

ALTER TABLE orders DROP CONSTRAINT orders_reject_reason_known;
ALTER TABLE orders ADD CONSTRAINT orders_reject_reason_known
    CHECK (reject_reason IN ('INSUFFICIENT_STOCK', 'ORDER_NOT_CREATED', 'RESERVATION_TIMEOUT'));

CREATE TABLE order_line (
    order_id       uuid        NOT NULL,
    line_no        integer     NOT NULL,
    product_id     uuid        NOT NULL,
    quantity       integer     NOT NULL,
    status         text        NOT NULL DEFAULT 'PENDING',
    reject_reason  text,
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT order_line_pk PRIMARY KEY (order_id, line_no),
    CONSTRAINT order_line_order_fk FOREIGN KEY (order_id) REFERENCES orders (id),
    CONSTRAINT order_line_product_fk FOREIGN KEY (product_id) REFERENCES product (id),
    CONSTRAINT order_line_product_once UNIQUE (order_id, product_id),
    CONSTRAINT order_line_no_positive CHECK (line_no > 0),
    CONSTRAINT order_line_quantity_positive CHECK (quantity > 0),
    CONSTRAINT order_line_status_known
        CHECK (status IN ('PENDING', 'RESERVED', 'REFUSED', 'CANCELLED', 'SOLD', 'RELEASING', 'RELEASED')),
    CONSTRAINT order_line_reject_reason_only_when_refused
        CHECK ((status = 'REFUSED') = (reject_reason IS NOT NULL)),
    CONSTRAINT order_line_reject_reason_known CHECK (reject_reason IN ('INSUFFICIENT_STOCK'))
);

-- what a product's units are doing (sold, held) and the lines still waiting, per product
CREATE INDEX order_line_product_status_idx ON order_line (product_id, status);
