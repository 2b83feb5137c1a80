package io.trimswitch.report;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SummaryTableTest {
    @Property
    void decimalsAreWhatPercentFPrints(@ForAll @DoubleRange(min = 0, max = 1e7) final double value, @ForAll @IntRange(max = 3) final int digits) {
        assertEquals(String.format(Locale.ROOT, "%." + digits + "f", value), SummaryTable.fixed(value, digits));
    }

    @Test
    void halfwayCasesRoundUpFromTheShortestDecimal() {
        assertEquals("0.13", SummaryTable.fixed(0.125, 2));
        assertEquals("1.0", SummaryTable.fixed(0.95, 1));
        assertEquals("3", SummaryTable.fixed(2.5, 0));
        assertEquals("24.03", SummaryTable.fixed(24.025, 2));
        assertEquals(String.format(Locale.ROOT, "%.2f", 1.005), SummaryTable.fixed(1.005, 2));
    }

    @Test
    void notANumberIsNamed() {
        assertEquals("NaN", SummaryTable.fixed(Double.NaN, 2));
        assertEquals("Infinity", SummaryTable.fixed(Double.POSITIVE_INFINITY, 1));
    }
}
