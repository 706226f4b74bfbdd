package dev.warden.e2e;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The leak check itself: a random ref is not an echo, a real echo still is. */
class LeaksTest {

    @Test
    void aRefWhoseRandomCharactersSpellACallerMarkerIsNotALeak() {
        assertThatCode(() -> Leaks.assertNothingLeaks("{\"ref\":\"ref_qi2usazs5935fywa\"}"))
                .doesNotThrowAnyException();
    }

    @Test
    void theSameMarkerOutsideARefIsStillALeak() {
        assertThatThrownBy(() -> Leaks.assertNothingLeaks("{\"ref\":\"ref_qi2usazs5935fywa\",\"country\":\"usa\"}"))
                .hasMessageContaining("usa");
    }

    @Test
    void aMalformedRefIsCheckedLikeAnyOtherText() {
        assertThatThrownBy(() -> Leaks.assertNothingLeaks("ref_usa"))
                .hasMessageContaining("usa");
    }
}
