package dev.warden.core.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one duration grammar: every form the configuration, the auth file, {@code --drain-timeout}
 * and {@code --since} took before they shared it, and what it refuses.
 */
class DurationsTest {

    @ParameterizedTest
    @CsvSource({
            "1500ms, PT1.5S", "60s, PT1M", "5m, PT5M", "2h, PT2H", "14d, PT336H", // count and unit
            "5S, PT5S", "90M, PT1H30M", "500MS, PT0.5S", // any case
            "0, PT0S", "0s, PT0S", "0ms, PT0S", // zero (drain-timeout's bare 0)
            "'  30s ', PT30S", "+5s, PT5S", "-5s, PT-5S", "007s, PT7S", // blanks, a sign, leading zeros
            "PT1M, PT1M", "pt1m, PT1M", "P2D, PT48H", "PT0.5S, PT0.5S", "P1DT2H, PT26H" // ISO-8601
    })
    void acceptsEachForm(String text, Duration expected) {
        assertThat(Durations.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "soon", "30", "5", "s", "ms", "1.5s", "5 s", "5sec", "5 minutes", "5w", "5y",
            "-", "+s", "P", "PTx", "-PT5M", "9999999999999999999s", "999999999999999999d", "5s5m", "1e3ms", "٣s"})
    void refusesEachOtherFormNamingIt(String text) {
        assertThatThrownBy(() -> Durations.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got \"" + text + "\"");
    }
}
