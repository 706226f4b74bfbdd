package dev.warden.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.AbstractEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The default incident store is where the {@code warden} command looks ({@code DataDirectory}):
 * each case passes its own environment, so none depends on this machine's home or variables.
 */
class WardenIncidentDirectoryTest {

    private static Path directory(Optional<String> dir, Map<String, Object> environment) {
        AbstractEnvironment env = new AbstractEnvironment() {
        };
        env.getPropertySources().addFirst(new MapPropertySource("test", environment));
        return new WardenProperties.Incidents(dir).directory(env);
    }

    @Test
    void wardenDataDirComesFirst() {
        assertThat(directory(Optional.empty(), Map.of("WARDEN_DATA_DIR", "/data/w", "XDG_DATA_HOME", "/xdg",
                "user.home", "/home/u"))).isEqualTo(Path.of("/data/w", "incidents"));
    }

    @Test
    void thenXdgDataHome() {
        assertThat(directory(Optional.empty(), Map.of("XDG_DATA_HOME", "/xdg", "user.home", "/home/u")))
                .isEqualTo(Path.of("/xdg", "warden", "incidents"));
    }

    @Test
    void thenTheHomesLocalShare() {
        assertThat(directory(Optional.empty(), Map.of("WARDEN_DATA_DIR", " ", "user.home", "/home/u")))
                .isEqualTo(Path.of("/home/u", ".local", "share", "warden", "incidents"));
    }

    @Test
    void thePropertyOverridesThemAll() {
        assertThat(directory(Optional.of("/mine"), Map.of("WARDEN_DATA_DIR", "/data/w", "user.home", "/home/u")))
                .isEqualTo(Path.of("/mine"));
    }
}
