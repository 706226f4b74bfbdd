package dev.warden.core.incident;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where Warden keeps its data when not told: {@code WARDEN_DATA_DIR}, else
 * {@code $XDG_DATA_HOME/warden}, else {@code ~/.local/share/warden}. One place, so that a server
 * adapted in process and the {@code warden incidents} command find the same incidents.
 */
public final class DataDirectory {

    private DataDirectory() {
    }

    /** {@code explicit} if given, else the default above. */
    public static Path resolve(Optional<Path> explicit) {
        if (explicit.isPresent()) {
            return explicit.get();
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

    /** The incident store's directory under {@link #resolve}. */
    public static Path incidents(Optional<Path> explicit) {
        return resolve(explicit).resolve("incidents");
    }
}
