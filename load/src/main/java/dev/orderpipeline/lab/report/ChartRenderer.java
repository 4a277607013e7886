package dev.orderpipeline.lab.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** Draws {@link Chart}s as PNG files with JFreeChart, headless. */
final class ChartRenderer {

    static final int WIDTH = 960;

    /** Distinct, print-friendly series colours (Tableau 10), instead of JFreeChart's pale yellow and friends. */
    private static final Color[] PALETTE = {
        new Color(0x4E79A7), new Color(0xF28E2B), new Color(0xE15759), new Color(0x76B7B2), new Color(0x59A14F),
        new Color(0xEDC948), new Color(0xB07AA1), new Color(0xFF9DA7), new Color(0x9C755F), new Color(0xBAB0AC)
    };

    static final int HEIGHT = 480;

    /** Series named {@code "<run> p50"} are drawn dashed in the colour of {@code "<run> p99"}. */
    static final String MEDIAN_SUFFIX = " p50";

    private static final BasicStroke SOLID = new BasicStroke(1.5f);
    private static final BasicStroke DASHED =
            new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);

    static {
        // no display is needed to draw into an image; set before AWT looks for one
        System.setProperty("java.awt.headless", "true");
    }

    private ChartRenderer() {}

    /** Writes {@code <directory>/<chart.file()>.png} and returns its path. */
    static Path render(Chart chart, Path directory) {
        var file = directory.resolve(chart.file() + ".png");
        var drawn = switch (chart) {
            case Chart.Bars bars -> bars(bars);
            case Chart.Lines lines -> lines(lines);
        };
        drawn.setBackgroundPaint(Color.WHITE);
        try {
            ChartUtils.saveChartAsPNG(file.toFile(), drawn, WIDTH, HEIGHT);
        } catch (IOException ex) {
            throw new UncheckedIOException("could not write " + file, ex);
        }
        return file;
    }

    private static JFreeChart bars(Chart.Bars bars) {
        var dataset = new DefaultCategoryDataset();
        bars.values()
                .forEach((series, byCategory) ->
                        byCategory.forEach((category, value) -> dataset.addValue(value, series, category)));
        var chart = bars.stacked()
                ? ChartFactory.createStackedBarChart(
                        bars.title(), null, bars.valueAxis(), dataset, PlotOrientation.VERTICAL, true, false, false)
                : ChartFactory.createBarChart(
                        bars.title(), null, bars.valueAxis(), dataset, PlotOrientation.VERTICAL, true, false, false);
        var plot = (CategoryPlot) chart.getPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        if (plot.getRenderer() instanceof BarRenderer renderer) {
            renderer.setBarPainter(new StandardBarPainter());
            renderer.setShadowVisible(false);
            for (var series = 0; series < dataset.getRowCount(); series++) {
                renderer.setSeriesPaint(series, PALETTE[series % PALETTE.length]);
            }
        }
        return chart;
    }

    private static JFreeChart lines(Chart.Lines lines) {
        var dataset = new XYSeriesCollection();
        lines.values().forEach((name, points) -> {
            var series = new XYSeries(name, true, true);
            points.forEach(point -> series.add(point.x(), point.y()));
            dataset.addSeries(series);
        });
        var chart = ChartFactory.createXYLineChart(
                lines.title(), lines.xAxis(), lines.yAxis(), dataset, PlotOrientation.VERTICAL, true, false, false);
        var plot = (XYPlot) chart.getPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        var counts = lines.values().values().stream()
                .flatMap(List::stream)
                .allMatch(point -> point.x() == Math.rint(point.x()));
        if (counts && plot.getDomainAxis() instanceof NumberAxis axis) {
            // whole numbers on the x axis (workers, partitions) get whole-number ticks, not 1.1, 1.2, ...
            axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        }
        // "<run> p50" beside "<run> p99": the same colour for one run, the median dashed
        var colours = new LinkedHashMap<String, Color>();
        for (var series = 0; series < dataset.getSeriesCount(); series++) {
            var name = dataset.getSeriesKey(series).toString();
            var median = name.endsWith(MEDIAN_SUFFIX);
            var run =
                    median ? name.substring(0, name.length() - MEDIAN_SUFFIX.length()) : name.replaceAll(" p\\d+$", "");
            var colour = colours.computeIfAbsent(run, key -> PALETTE[colours.size() % PALETTE.length]);
            plot.getRenderer().setSeriesPaint(series, colour);
            plot.getRenderer().setSeriesStroke(series, median ? DASHED : SOLID);
        }
        return chart;
    }
}
