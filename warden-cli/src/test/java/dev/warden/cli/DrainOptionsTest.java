package dev.warden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DrainOptionsTest {

    final DrainOptions.Converter converter = new DrainOptions.Converter();

    @Test
    void aDrainTimeoutIsWrittenAsTheConfigurationWritesDurations() {
        assertThat(converter.convert("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(converter.convert("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(converter.convert("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(converter.convert("0")).isEqualTo(Duration.ZERO);
    }

    @Test
    void aNumberWithoutAUnitOrAnythingElseIsRefusedNamingIt() {
        assertThatThrownBy(() -> converter.convert("30")).isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessageContaining("\"30\"");
        assertThatThrownBy(() -> converter.convert("-1s")).hasMessageContaining("\"-1s\"");
    }

    @Test
    void theDefaultIsThirtySeconds() {
        assertThat(new DrainOptions().timeout).isEqualTo(Duration.ofSeconds(30));
    }
}
