package dev.warden.core.incident;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where Warden keeps its data when not told: {@code WARDEN_DATA_DIR}, else
 * {@code $XDG_DATA_HOME/warden}, else {@code ~/.local/share/warden}. One place, so that a server
 * adapted in process and the {@code warden incidents} command find the same incidents.
 */
public final class DataDirectory {

    private DataDirectory() {
    }

    /** {@code explicit} if given, else the default above, from this process's environment. */
    public static Path resolve(Optional<Path> explicit) {
        return resolve(explicit, name -> Optional.ofNullable(System.getenv(name)),
                Path.of(System.getProperty("user.home")));
    }

    /**
     * {@code explicit} if given, else the default above, with the variables read from
     * {@code environment} and {@code home} as the home directory: for a caller that has an environment
     * of its own (Spring's, a test's).
     */
    public static Path resolve(Optional<Path> explicit, Function<String, Optional<String>> environment, Path home) {
        if (explicit.isPresent()) {
            return explicit.get();
        }
        Optional<String> data = environment.apply("WARDEN_DATA_DIR").filter(value -> !value.isBlank());
        if (data.isPresent()) {
            return Path.of(data.get());
        }
        return environment.apply("XDG_DATA_HOME").filter(value -> !value.isBlank())
                .map(xdg -> Path.of(xdg, "warden"))
                .orElseGet(() -> home.resolve(Path.of(".local", "share", "warden")));
    }

    /** The incident store's directory under {@link #resolve(Optional)}. */
    public static Path incidents(Optional<Path> explicit) {
        return resolve(explicit).resolve("incidents");
    }

    /** The incident store's directory under {@link #resolve(Optional, Function, Path)}. */
    public static Path incidents(Optional<Path> explicit, Function<String, Optional<String>> environment, Path home) {
        return resolve(explicit, environment, home).resolve("incidents");
    }
}
