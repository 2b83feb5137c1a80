package io.trimswitch.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WholeNumbersTest {
    @Test
    void theDigitsZeroToNineWithASignAreReadAsTheJdkReadsThem() {
        assertEquals(12, WholeNumbers.parseInt("12"));
        assertEquals(-7, WholeNumbers.parseInt("-7"));
        assertEquals(5, WholeNumbers.parseInt("+5"));
        assertEquals(9_000_000_000L, WholeNumbers.parseLong("9000000000"));
    }

    @Test
    void anyOtherScriptsDigitsAndEverythingElseAreRefused() {
        for (final String text : new String[] {"\u0661", "\uff15", "1\u0662", "", "-", "+", " 1", "1 ", "0x10", "1e3", "1.0", "99999999999"}) {
            assertThrows(NumberFormatException.class, () -> WholeNumbers.parseInt(text), text);
        }
        assertThrows(NumberFormatException.class, () -> WholeNumbers.parseInt(null));
        assertThrows(NumberFormatException.class, () -> WholeNumbers.parseLong("\u0661"));
    }

    @Test
    void aRefusalQuotesAtMostEightyCharactersOnOneLine() {
        final NumberFormatException e = assertThrows(NumberFormatException.class, () -> WholeNumbers.parseInt("x".repeat(10_000) + "\n"));
        assertTrue(e.getMessage().length() < 140 && !e.getMessage().contains("\n"), e.getMessage());
    }
}
