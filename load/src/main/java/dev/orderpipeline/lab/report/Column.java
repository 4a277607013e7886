package dev.orderpipeline.lab.report;

import java.util.function.Function;

/**
 * One column of a table of rows of type {@code R}: its heading and how a row reads in it, side by side so that a
 * heading cannot drift away from its cells.
 */
public record Column<R>(String heading, Function<? super R, String> cell) {

    public static <R> Column<R> of(String heading, Function<? super R, String> cell) {
        return new Column<>(heading, cell);
    }
}
