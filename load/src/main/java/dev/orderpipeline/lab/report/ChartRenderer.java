package dev.orderpipeline.lab.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.block.RectangleConstraint;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedRangeXYPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.Marker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.Range;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jspecify.annotations.Nullable;

/** Draws {@link Chart}s as PNG files with JFreeChart, headless. */
final class ChartRenderer {

    static final int WIDTH = 960;
    static final int HEIGHT = 480;

    /**
     * Fourteen series colours a reader tells apart on thin lines (Tableau 10, then near-black, dark red, deep purple
     * and navy, each at least 25 CIELAB units from every other): the partitions of a 12-partition topic get a colour
     * each instead of the pale yellows JFreeChart would start repeating.
     */
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
            new Color(0xBAB0AC),
            new Color(0x1B1B1B),
            new Color(0x8B0000),
            new Color(0x7F3C8D),
            new Color(0x0B3D91));

    /** Series named {@code "<run> p50"} are drawn dashed in the colour of {@code "<run> p99"}. */
    static final String MEDIAN_SUFFIX = " p50";

    /** More legend entries than this go to a compact column on the right instead of rows under the plot. */
    static final int LEGEND_BELOW_MAX = 6;

    private static final BasicStroke SOLID = new BasicStroke(1.5f);
    private static final BasicStroke DASHED =
            new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);
    private static final BasicStroke EVENT_STROKE =
            new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 3f}, 0f);
    private static final Color EVENT_COLOUR = new Color(0x333333);
    private static final Color WINDOW_COLOUR = new Color(0xE15759);
    private static final Font LEGEND_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final Font EVENT_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 10);
    private static final Font LABEL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font TICK_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 10);
    /** Lines with at most this many points per series show their points: a rate sweep of five is five measurements. */
    private static final int SHAPES_MAX_POINTS = 12;

    static {
        // no display is needed to draw into an image; set before AWT looks for one
        System.setProperty("java.awt.headless", "true");
    }

    private ChartRenderer() {}

    /** A chart as drawn: the image, its plots (one per panel), and the legend's size or bounds; null for none. */
    record Drawing(
            BufferedImage image,
            List<JFreeChart> plots,
            @Nullable Rectangle2D legend) {

        /** The share of the image the legend takes: a legend that crowds out the plot is a chart nobody reads. */
        double legendFraction() {
            return legend == null
                    ? 0
                    : legend.getWidth() * legend.getHeight() / ((double) image.getWidth() * image.getHeight());
        }
    }

    /** Writes {@code <directory>/<chart.file()>.png} and returns its path. */
    static Path render(Chart chart, Path directory) {
        var file = directory.resolve(chart.file() + ".png");
        try {
            ImageIO.write(draw(chart).image(), "png", file.toFile());
        } catch (IOException ex) {
            throw new UncheckedIOException("could not write " + file, ex);
        }
        return file;
    }

    static Drawing draw(Chart chart) {
        return switch (chart) {
            case Chart.Bars bars -> single(bars(bars));
            case Chart.Lines lines -> single(lines(lines));
            case Chart.Panels panels -> single(panels(panels));
        };
    }

    private static Drawing single(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        var image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        var g2 = graphics(image);
        chart.draw(g2, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
        var legend = chart.getLegend();
        // JFreeChart does not keep where it drew a title; arranged again in the whole image, it takes the same size
        var size = legend == null
                ? null
                : legend.arrange(g2, new RectangleConstraint(new Range(0, WIDTH), new Range(0, HEIGHT)));
        g2.dispose();
        return new Drawing(
                image,
                List.of(chart),
                size == null ? null : new Rectangle2D.Double(0, 0, size.getWidth(), size.getHeight()));
    }

    private static Graphics2D graphics(BufferedImage image) {
        var g2 = image.createGraphics();
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g2.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g2.setPaint(Color.WHITE);
        g2.fillRect(0, 0, image.getWidth(), image.getHeight());
        return g2;
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
        var categories = plot.getDomainAxis();
        categories.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        // JFreeChart cuts a category label at its share of the axis; a report's labels are what the bars mean
        categories.setMaximumCategoryLabelWidthRatio(3f);
        categories.setTickLabelFont(LEGEND_FONT);
        var values = bars.values().values().stream()
                .flatMap(byCategory -> byCategory.values().stream())
                .toList();
        var scale = bars.stacked() ? Chart.Scale.LINEAR : bars.scale().resolve(values);
        if (plot.getRenderer() instanceof BarRenderer renderer) {
            renderer.setBarPainter(new StandardBarPainter());
            renderer.setShadowVisible(false);
            for (var series = 0; series < dataset.getRowCount(); series++) {
                renderer.setSeriesPaint(series, colour(series));
            }
            if (scale == Chart.Scale.LOG) {
                // bars grow from the smallest value's half, not from zero, which a log axis has no place for
                var base = smallestPositive(values) / 2;
                renderer.setBase(base);
                var axis = logAxis(bars.valueAxis());
                axis.setSmallestValue(base);
                plot.setRangeAxis(axis);
            }
        }
        if (bars.values().size() == 1 && bars.values().containsKey(bars.valueAxis())) {
            // one series named as the axis: a legend would only repeat the axis label (a lone "200" it would not)
            chart.removeLegend();
        }
        compactLegend(chart, dataset.getRowCount());
        return chart;
    }

    private static JFreeChart lines(Chart.Lines lines) {
        var colours = new LinkedHashMap<String, Color>();
        var chart = xyChart(
                lines.title(),
                lines.xAxis(),
                lines.yAxis(),
                lines.values(),
                lines.xScale().resolve(xs(lines.values().values())),
                lines.yScale().resolve(ys(lines.values().values())),
                lines.events(),
                colours);
        if (colours.size() > 1) {
            var legend = legend(colours);
            legend.setPosition(RectangleEdge.BOTTOM);
            chart.addLegend(legend);
            compactLegend(chart, colours.size());
        }
        return chart;
    }

    /** Panels side by side on one shared y axis, with one legend: a plot per panel, combined. */
    private static JFreeChart panels(Chart.Panels grid) {
        var colours = new LinkedHashMap<String, Color>();
        var combined = new CombinedRangeXYPlot(new NumberAxis(grid.yAxis()));
        for (var panel : grid.panels()) {
            var plot = xyChart(
                            null,
                            panel.title(),
                            null,
                            panel.values(),
                            Chart.Scale.LINEAR,
                            Chart.Scale.LINEAR,
                            panel.events(),
                            colours)
                    .getXYPlot();
            plot.getDomainAxis().setLabelFont(LABEL_FONT);
            combined.add(plot);
        }
        combined.getRangeAxis().setTickLabelFont(TICK_FONT);
        combined.setFixedLegendItems(legendItems(colours));
        var chart = new JFreeChart(grid.title(), JFreeChart.DEFAULT_TITLE_FONT, combined, colours.size() > 1);
        chart.addSubtitle(new TextTitle("x: " + grid.xAxis(), LABEL_FONT));
        compactLegend(chart, colours.size());
        return chart;
    }

    /**
     * One XY plot: series coloured by run (a run's p50 dashed in its p99's colour), log axes where asked, events as
     * markers. {@code colours} maps each run to its colour and is shared between the panels of a grid.
     */
    private static JFreeChart xyChart(
            @Nullable String title,
            @Nullable String xLabel,
            @Nullable String yLabel,
            Map<String, List<Chart.Point>> values,
            Chart.Scale xScale,
            Chart.Scale yScale,
            List<Chart.Event> events,
            Map<String, Color> colours) {
        var dataset = new XYSeriesCollection();
        values.forEach((name, points) -> {
            var series = new XYSeries(name, true, true);
            points.stream()
                    // a log axis has no place for zero: such a point is left out, not drawn at minus infinity
                    .filter(point -> xScale != Chart.Scale.LOG || point.x() > 0)
                    .filter(point -> yScale != Chart.Scale.LOG || point.y() > 0)
                    .forEach(point -> series.add(point.x(), point.y()));
            dataset.addSeries(series);
        });
        var chart = ChartFactory.createXYLineChart(
                title, xLabel, yLabel, dataset, PlotOrientation.VERTICAL, false, false, false);
        chart.setBackgroundPaint(Color.WHITE);
        var plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        var allPoints = values.values();
        if (xScale == Chart.Scale.LOG) {
            plot.setDomainAxis(logAxis(xLabel));
        } else if (allPoints.stream().flatMap(List::stream).allMatch(point -> point.x() == Math.rint(point.x()))
                && plot.getDomainAxis() instanceof NumberAxis axis) {
            // whole numbers on the x axis (workers, partitions) get whole-number ticks, not 1.1, 1.2, ...
            axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        }
        if (yScale == Chart.Scale.LOG) {
            plot.setRangeAxis(logAxis(yLabel));
        }
        for (var axis : List.of(plot.getDomainAxis(), plot.getRangeAxis())) {
            axis.setTickLabelFont(TICK_FONT);
        }
        var renderer = (XYLineAndShapeRenderer) plot.getRenderer();
        renderer.setDefaultShapesVisible(allPoints.stream().allMatch(points -> points.size() <= SHAPES_MAX_POINTS));
        for (var series = 0; series < dataset.getSeriesCount(); series++) {
            var name = dataset.getSeriesKey(series).toString();
            var colour = colours.computeIfAbsent(run(name), key -> colour(colours.size()));
            renderer.setSeriesPaint(series, colour);
            renderer.setSeriesStroke(series, name.endsWith(MEDIAN_SUFFIX) ? DASHED : SOLID);
        }
        // lines and windows under the data, every label above every line: a label is never crossed out
        for (var event : events) {
            plot.addDomainMarker(marker(event), Layer.BACKGROUND);
            plot.addDomainMarker(label(event), Layer.FOREGROUND);
        }
        return chart;
    }

    private static Marker marker(Chart.Event event) {
        if (event.window()) {
            // shaded, with a thin line at its start and at its end
            return new IntervalMarker(
                    event.at(),
                    event.until(),
                    withAlpha(WINDOW_COLOUR, 40),
                    new BasicStroke(0.5f),
                    withAlpha(WINDOW_COLOUR, 160),
                    new BasicStroke(1f),
                    1f);
        }
        return new ValueMarker(event.at(), EVENT_COLOUR, EVENT_STROKE);
    }

    /** An event's label at its start. */
    private static Marker label(Chart.Event event) {
        var marker = new ValueMarker(event.at(), withAlpha(EVENT_COLOUR, 0), new BasicStroke(0f));
        marker.setLabel(event.label());
        marker.setLabelFont(EVENT_FONT);
        marker.setLabelPaint(EVENT_COLOUR);
        marker.setLabelBackgroundColor(Color.WHITE);
        // anchored right of the line (the offset widens the line's box), the text running on from there
        marker.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        marker.setLabelTextAnchor(TextAnchor.TOP_LEFT);
        marker.setLabelOffset(new RectangleInsets(3, 0, 0, 3));
        return marker;
    }

    private static Color withAlpha(Color colour, int alpha) {
        return new Color(colour.getRed(), colour.getGreen(), colour.getBlue(), alpha);
    }

    /** The run a series belongs to: its name without a percentile suffix, so a run's p50 and p99 share a colour. */
    private static String run(String series) {
        return series.endsWith(MEDIAN_SUFFIX)
                ? series.substring(0, series.length() - MEDIAN_SUFFIX.length())
                : series.replaceAll(" p\\d+$", "");
    }

    static Color colour(int index) {
        return PALETTE.get(index % PALETTE.size());
    }

    private static LegendItemCollection legendItems(Map<String, Color> colours) {
        var items = new LegendItemCollection();
        colours.forEach((run, colour) -> {
            var item = new LegendItem(run, null, null, null, new Line2D.Double(-7, 0, 7, 0), SOLID, colour);
            item.setLabelFont(LEGEND_FONT);
            items.add(item);
        });
        return items;
    }

    /** One entry per run, in the colour of its lines. */
    private static LegendTitle legend(Map<String, Color> colours) {
        var legend = new LegendTitle(() -> legendItems(colours));
        legend.setItemFont(LEGEND_FONT);
        legend.setFrame(BlockBorder.NONE);
        return legend;
    }

    /** A few entries in a row under the plot; many in a narrow column on the right, in a small font. */
    private static void compactLegend(JFreeChart chart, int entries) {
        var legend = chart.getLegend();
        if (legend == null) {
            return;
        }
        legend.setItemFont(LEGEND_FONT);
        legend.setFrame(BlockBorder.NONE);
        if (entries > LEGEND_BELOW_MAX) {
            legend.setPosition(RectangleEdge.RIGHT);
            legend.setHorizontalAlignment(HorizontalAlignment.LEFT);
        }
    }

    private static double smallestPositive(Collection<? extends Number> values) {
        return values.stream()
                .mapToDouble(Number::doubleValue)
                .filter(value -> value > 0)
                .min()
                .orElse(1);
    }

    private static List<Double> xs(Collection<List<Chart.Point>> series) {
        return series.stream().flatMap(List::stream).map(Chart.Point::x).toList();
    }

    private static List<Double> ys(Collection<List<Chart.Point>> series) {
        return series.stream().flatMap(List::stream).map(Chart.Point::y).toList();
    }

    private static LogAxis logAxis(@Nullable String label) {
        var axis = new LogAxis(label);
        axis.setBase(10);
        // plain numbers, not JFreeChart's exponents
        axis.setNumberFormatOverride(new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        axis.setTickLabelFont(TICK_FONT);
        axis.setMinorTickMarksVisible(true);
        return axis;
    }
}
