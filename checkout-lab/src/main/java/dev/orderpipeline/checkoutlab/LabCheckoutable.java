package dev.orderpipeline.checkoutlab;

import java.util.UUID;

/** An order as a lab checkout reads and answers it: one product ({@link LabOrder}) or a cart ({@link LabCart}). */
sealed interface LabCheckoutable permits LabOrder, LabCart {

    UUID id();

    LabStatus status();
}
