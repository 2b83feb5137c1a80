package io.trimswitch.switching.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SummaryTableTest {
    private static final double MAX_VALUE = 1e7;
    private static final int MAX_DIGITS = 3;
    private static final int DRAWN_CASES = 1000;

    @ParameterizedTest(name = "{0} to {1} digits")
    @CsvSource({
        "0, 0", "0, 1", "0, 2", "0, 3",
        "0.01, 0", "0.01, 1", "0.01, 2", "0.01, 3",
        "9999999.99, 0", "9999999.99, 1", "9999999.99, 2", "9999999.99, 3",
        "1e7, 0", "1e7, 1", "1e7, 2", "1e7, 3"})
    void decimalsAreWhatPercentFPrintsAtTheEndsOfTheRange(final double value, final int digits) {
        assertEquals(String.format(Locale.ROOT, "%." + digits + "f", value), SummaryTable.fixed(value, digits),
            value + " to " + digits + " digits");
    }

    /** Seeds drawn from a fixed seed, so that every run tries the same values. */
    static LongStream seeds() {
        return new SplittableRandom(0x5E_ED_7AB1EL).longs(DRAWN_CASES);
    }

    /**
     * Half the values have two decimals, as a report's inputs mostly do (and where halfway cases sit); the other half
     * any double in the range.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void decimalsAreWhatPercentFPrints(final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final double anyValue = random.nextDouble(0, Math.nextUp(MAX_VALUE));
        final double value = random.nextBoolean() ? Math.round(anyValue * 100) / 100.0 : anyValue;
        final int digits = random.nextInt(MAX_DIGITS + 1);
        assertEquals(String.format(Locale.ROOT, "%." + digits + "f", value), SummaryTable.fixed(value, digits),
            "seed " + seed + ": " + value + " to " + digits + " digits");
    }

    @Test
    void halfwayCasesRoundUpFromTheShortestDecimal() {
        assertEquals("0.13", SummaryTable.fixed(0.125, 2));
        assertEquals("1.0", SummaryTable.fixed(0.95, 1));
        assertEquals("3", SummaryTable.fixed(2.5, 0));
        assertEquals("24.03", SummaryTable.fixed(24.025, 2));
        assertEquals(String.format(Locale.ROOT, "%.2f", 1.005), SummaryTable.fixed(1.005, 2));
    }

    /** Any double, of either sign and any magnitude, as the BigDecimal rounding it replaces printed it. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void decimalsAreWhatBigDecimalPrintsForAnyDouble(final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final double value = Double.longBitsToDouble(random.nextLong());
        final double scaled = random.nextDouble(-1, 1) * Math.pow(10, random.nextInt(-8, 12));
        final int digits = random.nextInt(MAX_DIGITS + 1);
        for (final double v : new double[] {value, scaled}) {
            if (Double.isFinite(v)) {
                assertEquals(BigDecimal.valueOf(v).setScale(digits, RoundingMode.HALF_UP).toPlainString(), SummaryTable.fixed(v, digits),
                    "seed " + seed + ": " + v + " to " + digits + " digits");
            }
        }
    }

    @Test
    void smallLargeAndNegativeValuesRoundAsBigDecimalDid() {
        assertEquals("0.00", SummaryTable.fixed(-0.001, 2));
        assertEquals("0.00", SummaryTable.fixed(-0.0, 2));
        assertEquals("-0.01", SummaryTable.fixed(-0.005, 2));
        assertEquals("0.001", SummaryTable.fixed(5.0E-4, 3));
        assertEquals("0.000", SummaryTable.fixed(4.9E-4, 3));
        assertEquals("1", SummaryTable.fixed(0.5, 0));
        assertEquals("10.00", SummaryTable.fixed(9.995, 2));
        assertEquals("12345678901.00", SummaryTable.fixed(1.2345678901E10, 2));
        assertEquals("100000000000000000000", SummaryTable.fixed(1.0E20, 0));
    }

    @Test
    void notANumberIsNamed() {
        assertEquals("NaN", SummaryTable.fixed(Double.NaN, 2));
        assertEquals("Infinity", SummaryTable.fixed(Double.POSITIVE_INFINITY, 1));
    }
}
