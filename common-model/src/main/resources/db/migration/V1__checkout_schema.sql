-- The schema shared by order-api (products, orders, synchronous strategies) and checkout-worker (the pipeline).

CREATE TABLE product (
    id          uuid          NOT NULL,
    name        text          NOT NULL,
    stock       integer       NOT NULL,
    price       numeric(12,2) NOT NULL,
    -- bumped by writers that use optimistic concurrency; others leave it alone
    version     bigint        NOT NULL DEFAULT 0,
    created_at  timestamptz   NOT NULL DEFAULT now(),
    updated_at  timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT product_pk PRIMARY KEY (id),
    CONSTRAINT product_name_not_blank CHECK (length(btrim(name)) > 0),
    CONSTRAINT product_stock_not_negative CHECK (stock >= 0),
    CONSTRAINT product_price_not_negative CHECK (price >= 0)
);

CREATE TABLE orders (
    id             uuid        NOT NULL,
    user_id        text        NOT NULL,
    product_id     uuid        NOT NULL,
    quantity       integer     NOT NULL,
    -- CREATED -> COMPLETED | REJECTED; PROCESSING is the claim taken by the status-claim strategy
    status         text        NOT NULL DEFAULT 'CREATED',
    reject_reason  text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT orders_pk PRIMARY KEY (id),
    CONSTRAINT orders_product_fk FOREIGN KEY (product_id) REFERENCES product (id),
    CONSTRAINT orders_user_id_not_blank CHECK (length(btrim(user_id)) > 0),
    CONSTRAINT orders_quantity_positive CHECK (quantity > 0),
    CONSTRAINT orders_status_known CHECK (status IN ('CREATED', 'PROCESSING', 'COMPLETED', 'REJECTED')),
    CONSTRAINT orders_reject_reason_only_when_rejected CHECK ((status = 'REJECTED') = (reject_reason IS NOT NULL))
);

CREATE INDEX orders_product_status_idx ON orders (product_id, status);
CREATE INDEX orders_user_id_idx ON orders (user_id);

-- No unique key on order_id on purpose: the naive strategies must be able to show a double charge,
-- and the invariant checker counts payments per order.
CREATE TABLE payment (
    id          uuid          NOT NULL,
    order_id    uuid          NOT NULL,
    amount      numeric(14,2) NOT NULL,
    status      text          NOT NULL DEFAULT 'CAPTURED',
    created_at  timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT payment_pk PRIMARY KEY (id),
    CONSTRAINT payment_order_fk FOREIGN KEY (order_id) REFERENCES orders (id),
    CONSTRAINT payment_amount_not_negative CHECK (amount >= 0),
    CONSTRAINT payment_status_known CHECK (status IN ('CAPTURED'))
);

CREATE INDEX payment_order_id_idx ON payment (order_id);

-- The worker's idempotency table: one row per command ever applied, written in the transaction that applies it.
CREATE TABLE processed_command (
    command_id     uuid        NOT NULL,
    order_id       uuid        NOT NULL,
    -- NULL only inside the applying transaction, between the claim and the decision
    outcome        text,
    reject_reason  text,
    processed_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT processed_command_pk PRIMARY KEY (command_id),
    CONSTRAINT processed_command_outcome_known CHECK (outcome IN ('COMPLETED', 'REJECTED'))
);

CREATE INDEX processed_command_order_id_idx ON processed_command (order_id);
