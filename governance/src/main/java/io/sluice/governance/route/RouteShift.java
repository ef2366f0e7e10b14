package io.sluice.governance.route;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Moves traffic between routes in steps when the level changes its model route: at the change
 * {@code step} of the calls (20 %) go to the new route, one more step per {@code every} (15 s) until all
 * do; a move back to the normal route (the L0 route) steps every {@code backEvery} (slower), so a
 * recovering provider is not handed all the traffic at once. A change in the middle of a move starts
 * from the share already moved. Cheap per call: no lock on the hot path unless the target changes.
 */
public final class RouteShift {

    /** The share settings: step (0.2 = 20 %), interval towards a degraded route, interval back. */
    public record Settings(double step, Duration every, Duration backEvery) {
        public static final Settings DEFAULTS = new Settings(0.2, Duration.ofSeconds(15), Duration.ofSeconds(45));

        public Settings {
            if (!(step > 0 && step <= 1)) {
                throw new IllegalArgumentException("route-shift step must be in (0, 1]");
            }
            if (every == null || every.isNegative() || backEvery == null || backEvery.isNegative()) {
                throw new IllegalArgumentException("route-shift intervals must not be negative");
            }
        }
    }

    private record Move(String from, String to, double startShare, long changedAtNanos) {
    }

    private final Settings settings;
    private final String normalRoute;
    private final LongSupplier nanoClock;
    private volatile Move move;

    public RouteShift(Settings settings, String normalRoute, LongSupplier nanoClock) {
        this.settings = settings;
        this.normalRoute = normalRoute;
        this.nanoClock = nanoClock;
        this.move = new Move(normalRoute, normalRoute, 1, nanoClock.getAsLong());
    }

    public RouteShift(Settings settings, String normalRoute) {
        this(settings, normalRoute, System::nanoTime);
    }

    /** The route this call uses while traffic moves towards {@code target}. */
    public String pick(String target) {
        Move m = current(target);
        if (m.from().equals(m.to())) {
            return m.to();
        }
        return ThreadLocalRandom.current().nextDouble() < share(m) ? m.to() : m.from();
    }

    /** The share of calls on {@code route} now (for the console and tests). */
    public double shareOf(String route) {
        Move m = move;
        if (m.from().equals(m.to())) {
            return route.equals(m.to()) ? 1 : 0;
        }
        double share = share(m);
        return route.equals(m.to()) ? share : route.equals(m.from()) ? 1 - share : 0;
    }

    private Move current(String target) {
        Move m = move;
        if (m.to().equals(target)) {
            return m;
        }
        synchronized (this) {
            m = move;
            if (!m.to().equals(target)) {
                double already = m.from().equals(target) ? 1 - share(m) : 0;
                m = new Move(m.to(), target, already, nanoClock.getAsLong());
                move = m;
            }
            return m;
        }
    }

    private double share(Move m) {
        Duration interval = m.to().equals(normalRoute) ? settings.backEvery() : settings.every();
        long elapsed = nanoClock.getAsLong() - m.changedAtNanos();
        long steps = interval.isZero() ? Long.MAX_VALUE / 2 : 1 + elapsed / interval.toNanos();
        return Math.min(1, m.startShare() + settings.step() * steps);
    }
}
