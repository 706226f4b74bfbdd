package dev.warden.cli;

import dev.warden.core.incident.DataDirectory;
import java.nio.file.Path;
import java.util.Optional;

/** Where Warden keeps its data: {@link DataDirectory}, with {@code --data-dir} (null when not given) first. */
final class DataDir {

    private DataDir() {
    }

    static Path incidents(Path explicit) {
        return DataDirectory.incidents(Optional.ofNullable(explicit));
    }
}
