package dev.warden.core.error;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Where a text names a ref: each well-formed one standing alone, where it starts and ends. */
class RefOccurrencesTest {

    @Test
    void aRefStandingAloneIsFoundWhereItStandsAndOneInsideAWordIsNot() {
        Ref a = Ref.random();
        Ref b = Ref.random();
        String text = "{\"ref\":\"" + a.value() + "\"} x" + a.value() + " " + b.value() + "_ (" + b.value() + ")";

        assertThat(Ref.occurrences(text)).containsExactly(new Ref.Occurrence(8, a),
                new Ref.Occurrence(text.lastIndexOf(b.value()), b));
        assertThat(Ref.occurrences(text).getFirst().end()).isEqualTo(8 + a.value().length());
    }

    @Test
    void aRefPrefixWithoutSixteenCharactersOfTheAlphabetIsNone() {
        assertThat(Ref.occurrences("ref_ ref_abc ref_ABCDEFGHJKMNPQRS ref_0000000000000000 ref_")).isEmpty();
    }
}
