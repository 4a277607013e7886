package dev.orderpipeline.lab.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A chart of a report, saved as {@code <file>.png} beside it. */
public sealed interface Chart {

    /** The file name without extension; also the chart's anchor in the HTML. */
    String file();

    String title();

    /**
     * Bars per category (a strategy run), one bar per series (p50, p95...), stacked or side by side.
     *
     * @param values series name to category to value, in display order
     */
    record Bars(String file, String title, String valueAxis, boolean stacked, Map<String, Map<String, Number>> values)
            implements Chart {

        public Bars {
            var copy = new LinkedHashMap<String, Map<String, Number>>();
            values.forEach((series, byCategory) -> copy.put(series, new LinkedHashMap<>(byCategory)));
            values = copy;
        }
    }

    /**
     * Lines over time (seconds into a run), one per series.
     *
     * @param values series name to points, in display order
     */
    record Lines(String file, String title, String xAxis, String yAxis, Map<String, List<Point>> values)
            implements Chart {

        public Lines {
            var copy = new LinkedHashMap<String, List<Point>>();
            values.forEach((series, points) -> copy.put(series, List.copyOf(points)));
            values = copy;
        }
    }

    record Point(double x, double y) {}
}
