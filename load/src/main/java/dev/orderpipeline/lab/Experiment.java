package dev.orderpipeline.lab;

import dev.orderpipeline.lab.measure.Progress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * The skeleton every experiment runs on: a grid of cells (a rate and key distribution, a group of partitions and
 * workers, or one cell), each run for every strategy, the repetitions outermost and the strategies interleaved within a
 * cell, so that a slow drift of the machine spreads over all strategies instead of falling on one; before a strategy's
 * first run a warm-up, not reported. An experiment declares its cells, its labels, its warm-up and its run.
 *
 * @param <C> a cell of the grid
 * @param <R> what one run records
 */
public interface Experiment<C, R> {

    /** The cells in the order they run; each one for every strategy. */
    List<C> cells();

    /** The name of a run, on the progress line and in the report. */
    String label(String strategy, C cell, int repetition);

    /**
     * A run not reported, before the strategy's first: its first checkouts pay for class loading, JIT compilation and
     * new connections, which would otherwise count against whichever strategy runs first.
     */
    default void warmUp(String strategy, C cell) {}

    R run(String strategy, C cell, int repetition, String label);

    /** The line the progress keeps of a finished run. */
    String describe(R run);

    /**
     * Runs the grid of {@code experiment} over {@code strategies}, {@code repetitions} times, each run an item
     * ({@code noun} i/N, with the time left) of the progress line.
     */
    static <C, R> List<R> run(
            Experiment<C, R> experiment, List<String> strategies, int repetitions, String noun, Progress progress) {
        var cells = experiment.cells();
        var count = repetitions * cells.size() * strategies.size();
        var runs = new ArrayList<R>(count);
        var warm = new HashSet<String>();
        for (var repetition = 1; repetition <= repetitions; repetition++) {
            for (var cell : cells) {
                for (var strategy : strategies) {
                    var label = experiment.label(strategy, cell, repetition);
                    progress.item(noun, runs.size() + 1, count, label);
                    if (warm.add(strategy)) {
                        experiment.warmUp(strategy, cell);
                    }
                    var run = experiment.run(strategy, cell, repetition, label);
                    progress.note(experiment.describe(run));
                    runs.add(run);
                }
            }
        }
        return List.copyOf(runs);
    }
}
