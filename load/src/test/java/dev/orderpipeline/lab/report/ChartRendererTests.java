package dev.orderpipeline.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.Paint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.DoubleStream;
import javax.imageio.ImageIO;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedRangeXYPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.Marker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.Layer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartRendererTests {

    /** CIELAB distance under which two thin lines are hard to tell apart. */
    private static final double DISTINCT = 20;

    @TempDir
    Path folder;

    @Test
    void drawsLatenciesThatSpanDecadesOnALogAxis() throws IOException {
        var chart = new Chart.Lines(
                "latency",
                "Latency",
                "second",
                "ms",
                Map.of("kafka p99", ramp(12, 8), "db-atomic p99", ramp(40, 12_000)));

        var plot = plot(chart);

        assertThat(plot.getRangeAxis()).isInstanceOf(LogAxis.class);
        assertThat(plot.getDomainAxis()).isInstanceOf(NumberAxis.class).isNotInstanceOf(LogAxis.class);
    }

    @Test
    void keepsALinearAxisForFiguresOfOneOrderOfMagnitudeOrThatReachZero() {
        assertThat(plot(lines(Map.of("rate", ramp(400, 900)))).getRangeAxis()).isNotInstanceOf(LogAxis.class);
        // a drained backlog reaches zero, which a log axis cannot show
        assertThat(plot(lines(Map.of("lag", ramp(50_000, 0)))).getRangeAxis()).isNotInstanceOf(LogAxis.class);
        assertThat(ChartRenderer.spansDecades(DoubleStream.of(5, 800))).isTrue();
        assertThat(ChartRenderer.spansDecades(DoubleStream.of(5, 400))).isFalse();
        assertThat(ChartRenderer.spansDecades(DoubleStream.of(0, 1_000_000))).isFalse();
    }

    @Test
    void givesTenSeriesTenColoursEasyToTellApart() throws IOException {
        var series = new LinkedHashMap<String, List<Chart.Point>>();
        for (var line = 0; line < ChartRenderer.PALETTE.size(); line++) {
            series.put("series " + line, ramp(1_000 + line * 100, 0));
        }
        var chart = lines(series);

        var plot = plot(chart);

        var colours = new ArrayList<Color>();
        for (var line = 0; line < ChartRenderer.PALETTE.size(); line++) {
            Paint paint = plot.getRenderer().getSeriesPaint(line);
            colours.add((Color) paint);
        }
        for (var first = 0; first < colours.size(); first++) {
            for (var second = first + 1; second < colours.size(); second++) {
                assertThat(distance(colours.get(first), colours.get(second)))
                        .as("series %d against series %d", first, second)
                        .isGreaterThan(DISTINCT);
            }
        }
    }

    @Test
    void marksEventsAndWindowsWithTheirLabels() throws IOException {
        var chart = lines(Map.of("lag", ramp(10, 2_000)))
                .withEvents(List.of(new Chart.Event(27.3, "worker added"), new Chart.Event(40, 55, "broker-restart")));

        var plot = plot(chart);
        var drawn = markers(plot, Layer.BACKGROUND);
        var labels = markers(plot, Layer.FOREGROUND);

        assertThat(drawn).hasSize(2);
        assertThat(drawn.getFirst())
                .isInstanceOfSatisfying(
                        ValueMarker.class, line -> assertThat(line.getValue()).isEqualTo(27.3));
        assertThat(drawn.getLast()).isInstanceOfSatisfying(IntervalMarker.class, window -> {
            assertThat(window.getStartValue()).isEqualTo(40);
            assertThat(window.getEndValue()).isEqualTo(55);
        });
        assertThat(labels).map(Marker::getLabel).containsExactly("worker added", "broker-restart");
    }

    private static List<Marker> markers(XYPlot plot, Layer layer) {
        var markers = new ArrayList<Marker>();
        var found = plot.getDomainMarkers(layer);
        if (found != null) {
            for (var marker : found) {
                markers.add((Marker) marker);
            }
        }
        return markers;
    }

    @Test
    void drawsSmallMultiplesWithOneSharedAxisAndOneLegend() throws IOException {
        // the group's rebalance chart: a panel per event, a line per protocol
        var panels = new ArrayList<Chart.Panel>();
        for (var event : List.of("a worker added", "a worker killed", "killed, restarted")) {
            var values = new LinkedHashMap<String, List<Chart.Point>>();
            values.put("classic", ramp(2_000, 0));
            values.put("consumer", ramp(event.length() * 100, 0));
            panels.add(new Chart.Panel(event, values, List.of(new Chart.Event(27.3, "event"))));
        }
        var chart = new Chart.Panels("rebalance-lag", "Lag", "seconds", "commands", panels);

        var png = ChartRenderer.render(chart, folder);

        var combined = (CombinedRangeXYPlot) ChartRenderer.draw(chart).getPlot();
        assertThat(combined.getSubplots()).hasSize(3);
        // one legend entry per protocol, the same colour in every panel
        assertThat(combined.getLegendItems().getItemCount()).isEqualTo(2);
        assertThat(combined.getSubplots())
                .map(panel -> panel.getRenderer().getSeriesPaint(0))
                .containsOnly(ChartRenderer.colour(0));
        assertThat(ImageIO.read(png.toFile()).getHeight()).isEqualTo(ChartRenderer.HEIGHT);
    }

    @Test
    void drawsManySeriesOfEveryKind() throws IOException {
        var many = new LinkedHashMap<String, List<Chart.Point>>();
        for (var run = 0; run < 8; run++) {
            many.put("strategy " + run + " uniform:10000 decision p99", ramp(10 + run, 1_000));
        }
        var bars = new LinkedHashMap<String, Map<String, Number>>();
        for (var percentile : List.of("p50", "p95", "p99", "max")) {
            var values = new LinkedHashMap<String, Number>();
            for (var strategy : List.of("naive", "naive-tx", "app-lock", "db-atomic", "for-update", "kafka")) {
                values.put(strategy, 100 + percentile.length() * 10);
            }
            bars.put(percentile, values);
        }
        for (var chart : List.<Chart>of(lines(many), new Chart.Bars("latency", "Latency", "ms", false, bars))) {
            var png = ChartRenderer.render(chart, folder);

            assertThat(ImageIO.read(png.toFile())).as(chart.file()).isNotNull();
            assertThat(ChartRenderer.draw(chart).getLegend()).as(chart.file()).isNotNull();
        }
    }

    private XYPlot plot(Chart chart) {
        try {
            assertThat(ImageIO.read(ChartRenderer.render(chart, folder).toFile()))
                    .isNotNull();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return ChartRenderer.draw(chart).getXYPlot();
    }

    private static Chart.Lines lines(Map<String, List<Chart.Point>> values) {
        return new Chart.Lines("chart", "A chart", "second", "value", values);
    }

    /** Twenty points from {@code from} to {@code to}. */
    private static List<Chart.Point> ramp(double from, double to) {
        var points = new ArrayList<Chart.Point>();
        for (var second = 0; second < 20; second++) {
            points.add(new Chart.Point(second, from + (to - from) * second / 19));
        }
        return points;
    }

    /** CIE76 distance in CIELAB (D65): how differently two colours look. */
    private static double distance(Color first, Color second) {
        var a = lab(first);
        var b = lab(second);
        return Math.sqrt(Math.pow(a[0] - b[0], 2) + Math.pow(a[1] - b[1], 2) + Math.pow(a[2] - b[2], 2));
    }

    private static double[] lab(Color colour) {
        var r = linear(colour.getRed());
        var g = linear(colour.getGreen());
        var b = linear(colour.getBlue());
        var x = f((r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047);
        var y = f(r * 0.2126 + g * 0.7152 + b * 0.0722);
        var z = f((r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883);
        return new double[] {116 * y - 16, 500 * (x - y), 200 * (y - z)};
    }

    private static double linear(int channel) {
        var c = channel / 255.0;
        return c > 0.04045 ? Math.pow((c + 0.055) / 1.055, 2.4) : c / 12.92;
    }

    private static double f(double value) {
        return value > 0.008856 ? Math.cbrt(value) : 7.787 * value + 16.0 / 116;
    }
}
