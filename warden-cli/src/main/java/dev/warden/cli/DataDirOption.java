package dev.warden.cli;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --data-dir}: where Warden keeps its incident store (and audit log), for every command that opens it. */
final class DataDirOption {

    static final String NAME = "--data-dir";
    static final String LABEL = "DIR";
    static final String DESCRIPTION = "Keep incidents in the store under DIR/incidents (default: $WARDEN_DATA_DIR, "
            + "$XDG_DATA_HOME/warden or ~/.local/share/warden).";

    @Option(names = NAME, paramLabel = LABEL, description = DESCRIPTION)
    Path dataDir;

    /** The incident store's directory: under the given directory, else Warden's default ({@link DataDir}). */
    Path incidents() {
        return DataDir.incidents(dataDir);
    }

    /** As {@link #incidents()}, with {@code configured} (a configuration file's) before Warden's default. */
    Path incidents(Optional<Path> configured) {
        return DataDir.incidents(dataDir != null ? dataDir : configured.orElse(null));
    }
}
