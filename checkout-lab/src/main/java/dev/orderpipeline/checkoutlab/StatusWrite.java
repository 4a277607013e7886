package dev.orderpipeline.checkoutlab;

import org.jspecify.annotations.Nullable;

/** Which status an order must still have for a strategy's final status write to apply. */
enum StatusWrite {
    /** Whatever the status now is: the naive strategies' bug, so that a double click is charged twice. */
    UNGUARDED(null),
    /** Only an order still CREATED: the guard of every correct strategy. */
    IF_CREATED(LabStatus.CREATED),
    /** Only an order still claimed (PROCESSING): the status-claim strategy's finish. */
    IF_PROCESSING(LabStatus.PROCESSING);

    private final @Nullable LabStatus expected;

    StatusWrite(@Nullable LabStatus expected) {
        this.expected = expected;
    }

    /** The status the write requires, or {@code null} when it requires none. */
    @Nullable
    LabStatus expected() {
        return expected;
    }
}
