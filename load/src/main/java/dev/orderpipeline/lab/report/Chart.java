package dev.orderpipeline.lab.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A chart of a report, saved as {@code <file>.png} beside it. */
public sealed interface Chart {

    /** The file name without extension. */
    String file();

    String title();

    /**
     * Something that happened during a run, drawn on a time chart as a vertical line ({@code at == until}) or a shaded
     * window with a short label: a worker added or killed, a fault's window.
     */
    record Event(double at, double until, String label) {

        public Event {
            if (until < at) {
                throw new IllegalArgumentException("an event ends (" + until + ") before it starts (" + at + ")");
            }
        }

        /** An instant. */
        public Event(double at, String label) {
            this(at, at, label);
        }

        boolean window() {
            return until > at;
        }
    }

    /**
     * Bars per category (a strategy run), one bar per series (p50, p95...), stacked or side by side, on a linear axis:
     * the bar charts compare figures of one order of magnitude, and a reader expects zero at the base.
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
     * Lines, one per series, usually over time (seconds into a run). The y axis is logarithmic when every value is
     * positive and the largest is two decades or more above the smallest: a latency or a rate that spans decades reads
     * only on a log axis.
     *
     * @param values series name to points, in display order
     * @param logX a logarithmic x axis
     * @param events drawn as vertical lines or windows
     */
    record Lines(
            String file,
            String title,
            String xAxis,
            String yAxis,
            Map<String, List<Point>> values,
            boolean logX,
            List<Event> events)
            implements Chart {

        public Lines {
            values = copy(values);
            events = List.copyOf(events);
        }

        /** Linear x, no events. */
        public Lines(String file, String title, String xAxis, String yAxis, Map<String, List<Point>> values) {
            this(file, title, xAxis, yAxis, values, false, List.of());
        }

        public Lines withEvents(List<Event> added) {
            return new Lines(file, title, xAxis, yAxis, values, logX, added);
        }

        public Lines withLogX() {
            return new Lines(file, title, xAxis, yAxis, values, true, events);
        }
    }

    /**
     * Small multiples: one panel per scenario side by side, sharing the y axis, the same colour for a series name in
     * every panel and one legend for all. Many series read this way; on one plot they are a tangle.
     *
     * @param xAxis what every panel's x axis shows, under the title; each panel's x axis is labelled with its title
     */
    record Panels(String file, String title, String xAxis, String yAxis, List<Panel> panels) implements Chart {

        public Panels {
            panels = List.copyOf(panels);
        }
    }

    /** One panel of {@link Panels}: its title says what the panel is (a rate, a strategy), so series names need not. */
    record Panel(String title, Map<String, List<Point>> values, List<Event> events) {

        public Panel {
            values = copy(values);
            events = List.copyOf(events);
        }
    }

    /** Series in display order, each list unmodifiable. */
    private static Map<String, List<Point>> copy(Map<String, List<Point>> values) {
        var copy = new LinkedHashMap<String, List<Point>>();
        values.forEach((series, points) -> copy.put(series, List.copyOf(points)));
        return copy;
    }

    record Point(double x, double y) {}
}
