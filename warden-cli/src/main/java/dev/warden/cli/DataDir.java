package dev.warden.cli;

import java.nio.file.Path;

/** Where Warden keeps its data: {@code WARDEN_DATA_DIR}, else {@code $XDG_DATA_HOME/warden}, else {@code ~/.local/share/warden}. */
final class DataDir {

    private DataDir() {
    }

    static Path resolve(Path explicit) {
        if (explicit != null) {
            return explicit;
        }
        String env = System.getenv("WARDEN_DATA_DIR");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        String xdg = System.getenv("XDG_DATA_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "warden");
        }
        return Path.of(System.getProperty("user.home"), ".local", "share", "warden");
    }

    static Path incidents(Path explicit) {
        return resolve(explicit).resolve("incidents");
    }
}
