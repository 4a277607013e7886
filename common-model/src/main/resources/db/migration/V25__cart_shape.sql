-- The cart shape, which only the code kept until now (a cart with one line, a gap in its line numbers or lines on an
-- order of one product made GET or checkout answer 500): a cart (product_id NULL) has at least two lines, numbered 1
-- to n without gaps, and an order of one product has none. An order and its lines are written in one transaction, so
-- the check waits for its commit: constraint triggers, deferred, on both tables, each checking the whole order a row
-- belongs to. A broken order fails the commit with SQLSTATE 23514 (check_violation), the constraint
-- orders_cart_shape, and a message that says what is wrong.
--
-- Like a constraint added NOT VALID: rows written before this migration are not checked (the query in
-- docs/database.md finds any that break it). Creating a trigger takes a lock that holds writers back for a moment and
-- scans nothing.

-- Checks one order and its lines as they are now; an order deleted (with its lines) passes.
CREATE FUNCTION check_cart_shape(checked uuid) RETURNS void
    LANGUAGE plpgsql
AS $$
DECLARE
    single    boolean;
    lines     integer;
    last_line integer;
BEGIN
    SELECT product_id IS NOT NULL INTO single FROM orders WHERE id = checked;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT count(*), coalesce(max(line_no), 0) INTO lines, last_line FROM order_line WHERE order_id = checked;
    IF single AND lines > 0 THEN
        RAISE EXCEPTION 'order % is an order of one product and has % lines: only a cart has lines', checked, lines
            USING ERRCODE = 'check_violation', CONSTRAINT = 'orders_cart_shape';
    ELSIF NOT single AND lines < 2 THEN
        RAISE EXCEPTION 'cart % has % lines: a cart has at least two', checked, lines
            USING ERRCODE = 'check_violation', CONSTRAINT = 'orders_cart_shape';
    ELSIF NOT single AND last_line <> lines THEN
        -- line numbers are positive and unique (order_line_no_positive, the primary key): 1..n exactly when n is the
        -- highest
        RAISE EXCEPTION 'cart % has % lines numbered up to %: a cart''s lines are numbered from 1 without gaps',
                checked, lines, last_line
            USING ERRCODE = 'check_violation', CONSTRAINT = 'orders_cart_shape';
    END IF;
END
$$;

-- The trigger function of both tables: the order written, or the order of the line written (both, when a line moved).
CREATE FUNCTION check_cart_shape_of_row() RETURNS trigger
    LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_TABLE_NAME = 'orders' THEN
        PERFORM check_cart_shape(NEW.id);
        RETURN NULL;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM check_cart_shape(NEW.order_id);
    END IF;
    IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.order_id <> NEW.order_id) THEN
        PERFORM check_cart_shape(OLD.order_id);
    END IF;
    RETURN NULL;
END
$$;

-- Only the writes that can change the shape: the worker's status updates fire neither.
CREATE CONSTRAINT TRIGGER orders_cart_shape
    AFTER INSERT OR UPDATE OF product_id ON orders
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION check_cart_shape_of_row();

CREATE CONSTRAINT TRIGGER order_line_cart_shape
    AFTER INSERT OR DELETE OR UPDATE OF order_id, line_no ON order_line
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION check_cart_shape_of_row();
