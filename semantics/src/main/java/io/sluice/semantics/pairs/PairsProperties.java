package io.sluice.semantics.pairs;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code sluice.semantics.pairs.*}: how the cache's pair verifier is trained and calibrated.
 *
 * @param targetL0          precision the L0 operating point must reach on held-out pairs
 * @param targetL1          same at L1
 * @param targetL2          same at L2
 * @param targetL3          same at L3; never below {@link #PRECISION_FLOOR} (degraded is not careless)
 * @param candidateFloor    with a trained model, the lowest cosine a cached question needs to be asked about
 * @param maxCandidates     with a trained model, how many of the closest candidates it scores per lookup
 * @param calibrationShare  % of the labelled pairs held out (never fitted) to choose the operating points
 * @param minServed         an operating point must serve at least this many held-out pairs
 * @param minPairsPerLabel  training needs this many 'same' and 'different' pairs in each part
 * @param regularization    liblinear's C (inverse regularisation strength)
 * @param reviewSampleRate  share of served L2 hits put in the console's review queue (0 = none)
 * @param reviewKeep        review items kept (oldest unlabelled ones dropped beyond)
 * @param maxImportPairs    pairs one import may hold
 */
@Validated
@ConfigurationProperties("sluice.semantics.pairs")
public record PairsProperties(
        @DefaultValue("0.95") double targetL0,
        @DefaultValue("0.93") double targetL1,
        @DefaultValue("0.90") double targetL2,
        @DefaultValue("0.85") double targetL3,
        @DefaultValue("0.70") double candidateFloor,
        @DefaultValue("5") int maxCandidates,
        @DefaultValue("30") int calibrationShare,
        @DefaultValue("5") int minServed,
        @DefaultValue("10") int minPairsPerLabel,
        @DefaultValue("1.0") double regularization,
        @DefaultValue("0.1") double reviewSampleRate,
        @DefaultValue("2000") int reviewKeep,
        @DefaultValue("50000") int maxImportPairs) {

    /** The lowest target precision any level may be given. */
    public static final double PRECISION_FLOOR = 0.80;

    public PairsProperties {
        double[] targets = {targetL0, targetL1, targetL2, targetL3};
        for (int i = 0; i < targets.length; i++) {
            if (targets[i] < PRECISION_FLOOR || targets[i] > 1) {
                throw new IllegalArgumentException("sluice.semantics.pairs.target-l" + i + " must be in ["
                    + PRECISION_FLOOR + ", 1]");
            }
            if (i > 0 && targets[i] > targets[i - 1]) {
                throw new IllegalArgumentException("sluice.semantics.pairs targets must not rise with the level (L"
                    + i + " > L" + (i - 1) + ")");
            }
        }
        if (!(candidateFloor > 0 && candidateFloor <= 1)) {
            throw new IllegalArgumentException("sluice.semantics.pairs.candidate-floor must be in (0, 1]");
        }
        if (maxCandidates < 1 || calibrationShare < 10 || calibrationShare > 60 || minServed < 1 || minPairsPerLabel < 1
                || regularization <= 0 || reviewSampleRate < 0 || reviewSampleRate > 1 || reviewKeep < 1
                || maxImportPairs < 1) {
            throw new IllegalArgumentException("sluice.semantics.pairs: max-candidates, min-served, min-pairs-per-label, "
                + "review-keep and max-import-pairs ≥ 1; calibration-share in [10, 60]; regularization > 0; "
                + "review-sample-rate in [0, 1]");
        }
    }

    public static PairsProperties defaults() {
        return new PairsProperties(0.95, 0.93, 0.90, 0.85, 0.70, 5, 30, 5, 10, 1.0, 0.1, 2000, 50000);
    }

    public double target(String level) {
        return switch (level) {
            case "L0" -> targetL0;
            case "L1" -> targetL1;
            case "L2" -> targetL2;
            case "L3" -> targetL3;
            default -> throw new IllegalArgumentException("unknown level " + level);
        };
    }
}
