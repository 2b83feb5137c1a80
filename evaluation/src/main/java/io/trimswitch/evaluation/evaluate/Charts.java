package io.trimswitch.evaluation.evaluate;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The house style of the evaluation's plots, and saving them as PNG (panels side by side) and SVG (one per panel). */
final class Charts {
    static final int WIDTH = 560;
    static final int HEIGHT = 400;
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Charts() {
    }

    static XYChart xy(final String title, final String xAxis, final String yAxis) {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xAxis).yAxisTitle(yAxis).build();
        final var styler = chart.getStyler();
        houseStyle(styler);
        styler.setMarkerSize(4);
        return chart;
    }

    /** White, light grid lines, sans-serif titles, the palette, the legend inside the top right. */
    private static void houseStyle(final AxesChartStyler styler) {
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotGridLinesColor(new Color(0xdddddd));
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        styler.setLegendPosition(Styler.LegendPosition.InsideNE);
        styler.setLegendBorderColor(new Color(0xcccccc));
        styler.setSeriesColors(PALETTE);
        styler.setAntiAlias(true);
    }

    /** Bars of several series side by side per category, in the house style. */
    static CategoryChart bars(final String title, final String xAxis, final String yAxis) {
        final CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xAxis).yAxisTitle(yAxis).build();
        final var styler = chart.getStyler();
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 9));
        houseStyle(styler);
        return chart;
    }

    static void line(final XYChart chart, final String name, final double[] x, final double[] y) {
        chart.addSeries(name, x, y).setMarker(SeriesMarkers.NONE);
    }

    static void points(final XYChart chart, final String name, final double[] x, final double[] y) {
        chart.addSeries(name, x, y).setMarker(SeriesMarkers.CIRCLE);
    }

    /** Saves the panels side by side in one PNG and each panel as its own SVG; returns the SVG file names. */
    static <T extends Chart<?, ?>> List<String> save(final Path dir, final String name, final List<T> panels, final int columns) throws IOException {
        final int rows = (panels.size() + columns - 1) / columns;
        BitmapEncoder.saveBitmap(panels, rows, columns, dir.resolve(name + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
        final List<String> svgs = new ArrayList<>();
        for (int i = 0; i < panels.size(); i++) {
            final String svg = panels.size() == 1 ? name + ".svg" : name + "-" + (i + 1) + ".svg";
            VectorGraphicsEncoder.saveVectorGraphic(panels.get(i), dir.resolve(svg).toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            svgs.add(svg);
        }
        return svgs;
    }

    static double[] toArray(final List<Double> values) {
        final double[] array = new double[values.size()];
        for (int i = 0; i < array.length; i++) {
            array[i] = values.get(i);
        }
        return array;
    }
}
