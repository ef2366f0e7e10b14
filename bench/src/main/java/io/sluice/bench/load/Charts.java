package io.sluice.bench.load;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StackedXYAreaRenderer2;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.data.xy.DefaultTableXYDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** One timeline PNG per scenario (JFreeChart, headless): answers/s by tier, latency percentiles, permits and queue, level. */
final class Charts {

    private Charts() {
    }

    static void timeline(ScenarioResult result, Path file) throws IOException {
        Timeline timeline = result.timeline();
        Map<Integer, Timeline.Second> seconds = timeline.seconds();
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(new NumberAxis("second of the scenario"));
        plot.setGap(8);
        plot.add(outcomes(seconds), 3);
        plot.add(latency(seconds), 2);
        plot.add(gauges(timeline.samples()), 2);
        plot.add(level(timeline.samples()), 1);
        for (Object sub : plot.getSubplots()) {
            XYPlot xy = (XYPlot) sub;
            xy.setBackgroundPaint(Color.WHITE);
            xy.setDomainGridlinePaint(Color.LIGHT_GRAY);
            xy.setRangeGridlinePaint(Color.LIGHT_GRAY);
            ScenarioPlan plan = result.plan();
            if (plan.hasFault()) {
                xy.addDomainMarker(marker(plan.faultStart(), new Color(200, 0, 0)));
                xy.addDomainMarker(marker(plan.faultEnd(), new Color(0, 140, 0)));
            }
        }
        JFreeChart chart = new JFreeChart(result.plan().name() + ": " + result.plan().title(), JFreeChart.DEFAULT_TITLE_FONT,
            plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 1100, 900);
    }

    private static ValueMarker marker(double at, Color color) {
        ValueMarker marker = new ValueMarker(at, color, new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
            1, new float[] {6, 4}, 0));
        return marker;
    }

    private static XYPlot outcomes(Map<Integer, Timeline.Second> seconds) {
        DefaultTableXYDataset data = new DefaultTableXYDataset();
        List<String> tiers = List.of("F4", "F3", "F2", "F1", "F0");
        for (String tier : tiers) {
            XYSeries series = new XYSeries(tier, false, false);
            seconds.forEach((s, v) -> series.add(s.doubleValue(), v.tiers.getOrDefault(tier, 0)));
            data.addSeries(series);
        }
        Map<Outcome.Kind, String> other = Map.of(Outcome.Kind.REJECTED, "429", Outcome.Kind.UNAVAILABLE, "503",
            Outcome.Kind.VIOLATION, "violation", Outcome.Kind.LOST_WITH_KILLED_INSTANCE, "lost (killed)");
        for (Outcome.Kind kind : List.of(Outcome.Kind.REJECTED, Outcome.Kind.UNAVAILABLE, Outcome.Kind.VIOLATION,
                Outcome.Kind.LOST_WITH_KILLED_INSTANCE)) {
            XYSeries series = new XYSeries(other.get(kind), false, false);
            seconds.forEach((s, v) -> series.add(s.doubleValue(), v.kinds.getOrDefault(kind, 0)));
            data.addSeries(series);
        }
        StackedXYAreaRenderer2 renderer = new StackedXYAreaRenderer2();
        Color[] colors = {new Color(0, 110, 200), new Color(90, 170, 240), new Color(140, 200, 120), new Color(250, 190, 60),
            new Color(170, 120, 200), new Color(230, 120, 40), new Color(150, 80, 40), new Color(220, 0, 0), Color.BLACK};
        for (int i = 0; i < colors.length; i++) {
            renderer.setSeriesPaint(i, colors[i]);
        }
        return new XYPlot(data, null, new NumberAxis("requests/s (by due second)"), renderer);
    }

    private static XYPlot latency(Map<Integer, Timeline.Second> seconds) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (double p : new double[] {50, 95, 99}) {
            XYSeries series = new XYSeries("p" + (int) p + " ms");
            seconds.forEach((s, v) -> {
                if (v.latency.getTotalCount() > 0) {
                    series.add(s.doubleValue(), v.latency.getValueAtPercentile(p) / 1e6);
                }
            });
            data.addSeries(series);
        }
        return new XYPlot(data, null, new NumberAxis("answer latency ms"), new XYLineAndShapeRenderer(true, false));
    }

    private static XYPlot gauges(List<Timeline.Sample> samples) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYSeries interactive = new XYSeries("interactive permits in use");
        XYSeries batch = new XYSeries("batch permits in use");
        XYSeries queue = new XYSeries("work queue (queued)");
        XYSeries provider = new XYSeries("provider calls in flight");
        XYSeries admission = new XYSeries("admission queue (S+A+B, both instances)");
        for (Timeline.Sample s : samples) {
            add(admission, s.second(), s.admissionQueue());
            add(interactive, s.second(), s.permitsInUse());
            add(batch, s.second(), s.permitsBatch());
            add(queue, s.second(), s.batchQueue());
            add(provider, s.second(), s.mockInFlight());
        }
        data.addSeries(interactive);
        data.addSeries(batch);
        data.addSeries(queue);
        data.addSeries(provider);
        data.addSeries(admission);
        return new XYPlot(data, null, new NumberAxis("count"), new XYLineAndShapeRenderer(true, false));
    }

    private static XYPlot level(List<Timeline.Sample> samples) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYSeries level = new XYSeries("degradation level (0 = L0 … 3 = L3)");
        samples.forEach(s -> add(level, s.second(), s.level()));
        data.addSeries(level);
        NumberAxis axis = new NumberAxis("level");
        axis.setRange(-0.2, 3.2);
        axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        return new XYPlot(data, null, axis, new XYStepRenderer());
    }

    private static void add(XYSeries series, double x, double y) {
        if (!Double.isNaN(y)) {
            series.add(x, y);
        }
    }
}
