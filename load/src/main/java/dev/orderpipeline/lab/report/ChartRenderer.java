package dev.orderpipeline.lab.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.DoubleStream;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.StandardChartTheme;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedRangeXYPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** Draws {@link Chart}s as PNG files with JFreeChart, headless, in its default look but for the series' colours. */
final class ChartRenderer {

    static final int WIDTH = 960;
    static final int HEIGHT = 480;

    /** Series colours a reader tells apart on thin lines (Tableau 10), none as pale as JFreeChart's yellow. */
    static final List<Color> PALETTE = List.of(
            new Color(0x4E79A7),
            new Color(0xF28E2B),
            new Color(0xE15759),
            new Color(0x76B7B2),
            new Color(0x59A14F),
            new Color(0xEDC948),
            new Color(0xB07AA1),
            new Color(0xFF9DA7),
            new Color(0x9C755F),
            new Color(0xBAB0AC));

    private static final Color WINDOW = new Color(0x28E15759, true);
    private static final Color INVISIBLE = new Color(0, true);

    static {
        // no display is needed to draw into an image; set before AWT looks for one
        System.setProperty("java.awt.headless", "true");
        // JFreeChart's grey plot hides the shaded fault windows, and its white grid lines would vanish on white
        var theme = (StandardChartTheme) StandardChartTheme.createJFreeTheme();
        theme.setChartBackgroundPaint(Color.WHITE);
        theme.setPlotBackgroundPaint(Color.WHITE);
        theme.setDomainGridlinePaint(Color.LIGHT_GRAY);
        theme.setRangeGridlinePaint(Color.LIGHT_GRAY);
        ChartFactory.setChartTheme(theme);
    }

    private ChartRenderer() {}

    /** Writes {@code <directory>/<chart.file()>.png} and returns its path. */
    static Path render(Chart chart, Path directory) {
        var file = directory.resolve(chart.file() + ".png");
        try {
            ChartUtils.saveChartAsPNG(file.toFile(), draw(chart), WIDTH, HEIGHT);
        } catch (IOException ex) {
            throw new UncheckedIOException("could not write " + file, ex);
        }
        return file;
    }

    static JFreeChart draw(Chart chart) {
        return switch (chart) {
            case Chart.Bars bars -> bars(bars);
            case Chart.Lines lines -> lines(lines);
            case Chart.Panels panels -> panels(panels);
        };
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
        var plot = chart.getCategoryPlot();
        plot.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        // JFreeChart cuts a category label at its share of the axis; a report's labels are what the bars mean
        plot.getDomainAxis().setMaximumCategoryLabelWidthRatio(3f);
        var renderer = (BarRenderer) plot.getRenderer();
        for (var series = 0; series < dataset.getRowCount(); series++) {
            renderer.setSeriesPaint(series, colour(series));
        }
        return chart;
    }

    private static JFreeChart lines(Chart.Lines lines) {
        var points = lines.values().values().stream().flatMap(List::stream).toList();
        var logY = spansDecades(points.stream().mapToDouble(Chart.Point::y));
        var chart = ChartFactory.createXYLineChart(
                lines.title(),
                lines.xAxis(),
                lines.yAxis(),
                dataset(lines.values(), lines.logX(), logY),
                PlotOrientation.VERTICAL,
                lines.values().size() > 1,
                false,
                false);
        var plot = chart.getXYPlot();
        decorate(plot, lines.events(), new LinkedHashMap<>());
        if (lines.logX()) {
            plot.setDomainAxis(new LogAxis(lines.xAxis()));
        } else if (points.stream().allMatch(point -> point.x() == Math.rint(point.x()))) {
            // whole numbers on the x axis (workers, partitions) get whole-number ticks, not 1.1, 1.2, ...
            ((NumberAxis) plot.getDomainAxis()).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        }
        if (logY) {
            plot.setRangeAxis(new LogAxis(lines.yAxis()));
        }
        return chart;
    }

    /** Panels side by side on one shared y axis, with one legend: a plot per panel, combined. */
    private static JFreeChart panels(Chart.Panels grid) {
        var combined = new CombinedRangeXYPlot(new NumberAxis(grid.yAxis()));
        for (var panel : grid.panels()) {
            var values = dataset(panel.values(), false, false);
            combined.add(
                    new XYPlot(values, new NumberAxis(panel.title()), null, new XYLineAndShapeRenderer(true, false)));
        }
        var chart = new JFreeChart(grid.title(), JFreeChart.DEFAULT_TITLE_FONT, combined, true);
        chart.addSubtitle(new TextTitle("x: " + grid.xAxis()));
        // the theme before the colours, which it would replace with its own
        ChartFactory.getChartTheme().apply(chart);
        var colours = new LinkedHashMap<String, Color>();
        for (var panel = 0; panel < grid.panels().size(); panel++) {
            decorate(combined.getSubplots().get(panel), grid.panels().get(panel).events(), colours);
        }
        // one entry per series, not one per series and panel
        var legend = new LegendItemCollection();
        colours.forEach((series, colour) -> legend.add(new LegendItem(series, colour)));
        combined.setFixedLegendItems(legend);
        return chart;
    }

    /** Values two decades or more apart, none zero or below (a log axis has no place for zero). */
    static boolean spansDecades(DoubleStream values) {
        var range = values.summaryStatistics();
        return range.getCount() > 0 && range.getMin() > 0 && range.getMax() >= 100 * range.getMin();
    }

    private static XYSeriesCollection dataset(Map<String, List<Chart.Point>> values, boolean logX, boolean logY) {
        var dataset = new XYSeriesCollection();
        values.forEach((name, points) -> {
            var series = new XYSeries(name, true, true);
            points.stream()
                    // a log axis has no place for zero: such a point is left out, not drawn at minus infinity
                    .filter(point -> !logX || point.x() > 0)
                    .filter(point -> !logY || point.y() > 0)
                    .forEach(point -> series.add(point.x(), point.y()));
            dataset.addSeries(series);
        });
        return dataset;
    }

    /**
     * Colours each series by its name ({@code colours} is shared between the panels of a grid, so a series looks the
     * same in each) and draws the events.
     */
    private static void decorate(XYPlot plot, List<Chart.Event> events, Map<String, Color> colours) {
        var dataset = plot.getDataset();
        var renderer = (XYLineAndShapeRenderer) plot.getRenderer();
        for (var series = 0; series < dataset.getSeriesCount(); series++) {
            var name = dataset.getSeriesKey(series).toString();
            renderer.setSeriesPaint(series, colours.computeIfAbsent(name, key -> colour(colours.size())));
        }
        for (var event : events) {
            // the line or window under the data, its label above every line: a label is never crossed out
            plot.addDomainMarker(
                    event.window()
                            ? new IntervalMarker(event.at(), event.until(), WINDOW)
                            : new ValueMarker(event.at(), Color.DARK_GRAY, new BasicStroke(1f)),
                    Layer.BACKGROUND);
            var label = new ValueMarker(event.at(), INVISIBLE, new BasicStroke(0f));
            label.setLabel(event.label());
            label.setLabelBackgroundColor(Color.WHITE);
            label.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
            label.setLabelTextAnchor(TextAnchor.TOP_LEFT);
            plot.addDomainMarker(label, Layer.FOREGROUND);
        }
    }

    static Color colour(int index) {
        return PALETTE.get(index % PALETTE.size());
    }
}
