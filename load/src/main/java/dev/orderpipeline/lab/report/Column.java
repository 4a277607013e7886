package dev.orderpipeline.lab.report;

import dev.orderpipeline.lab.measure.Latency;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * One column of a table of rows of type {@code R}: its heading and how a row reads in it, side by side so that a
 * heading cannot drift away from its cells.
 */
public record Column<R>(String heading, Function<? super R, String> cell) {

    public static <R> Column<R> of(String heading, Function<? super R, String> cell) {
        return new Column<>(heading, cell);
    }

    /** A cell read from a part of the row that the row may lack: n/a without it. */
    public static <R, P> Column<R> of(
            String heading, Function<? super R, @Nullable P> part, Function<? super P, String> cell) {
        return new Column<>(heading, row -> {
            var known = part.apply(row);
            return known == null ? Cells.NOT_AVAILABLE : cell.apply(known);
        });
    }

    public static <R> Column<R> count(String heading, ToLongFunction<? super R> count) {
        return new Column<>(heading, row -> Long.toString(count.applyAsLong(row)));
    }

    /** p50, p95, p99 and max of a latency each row may lack, each a column headed by {@code prefix} and its name. */
    public static <R> List<Column<R>> percentiles(String prefix, Function<? super R, @Nullable Latency> latency) {
        return Latency.PERCENTILES.entrySet().stream()
                .map(percentile -> Column.<R>of(
                        prefix + percentile.getKey(), row -> Cells.duration(latency.apply(row), percentile.getValue())))
                .toList();
    }
}
