package dev.warden.core.incident;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DataDirectoryTest {

    @Test
    void aGivenDirectoryWinsAndIncidentsLiveUnderIt() {
        assertThat(DataDirectory.resolve(Optional.of(Path.of("/var/lib/warden")))).isEqualTo(Path.of("/var/lib/warden"));
        assertThat(DataDirectory.incidents(Optional.of(Path.of("/var/lib/warden"))))
                .isEqualTo(Path.of("/var/lib/warden/incidents"));
    }

    @Test
    void withoutOneTheEnvironmentOrTheUsersDataHomeDecides() {
        String env = System.getenv("WARDEN_DATA_DIR");
        String xdg = System.getenv("XDG_DATA_HOME");
        Path expected = env != null && !env.isBlank() ? Path.of(env)
                : xdg != null && !xdg.isBlank() ? Path.of(xdg, "warden")
                : Path.of(System.getProperty("user.home"), ".local", "share", "warden");
        assertThat(DataDirectory.resolve(Optional.empty())).isEqualTo(expected);
        assertThat(DataDirectory.incidents(Optional.empty())).isEqualTo(expected.resolve("incidents"));
    }

    @Test
    void aGivenEnvironmentDecidesInOrderDataDirThenXdgThenHome() {
        Path home = Path.of("/home/u");
        assertThat(DataDirectory.resolve(Optional.empty(), name -> Optional.of("/" + name), home))
                .isEqualTo(Path.of("/WARDEN_DATA_DIR"));
        assertThat(DataDirectory.resolve(Optional.empty(),
                name -> name.equals("XDG_DATA_HOME") ? Optional.of("/xdg") : Optional.of(" "), home))
                .isEqualTo(Path.of("/xdg/warden"));
        assertThat(DataDirectory.incidents(Optional.empty(), name -> Optional.empty(), home))
                .isEqualTo(Path.of("/home/u/.local/share/warden/incidents"));
    }
}
