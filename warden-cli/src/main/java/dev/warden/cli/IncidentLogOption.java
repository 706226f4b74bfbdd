package dev.warden.cli;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.segment.Retention;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --incident-log}: a file that gets incident records besides the store. */
final class IncidentLogOption {

    static final String NAME = "--incident-log";
    static final String LABEL = "FILE";
    static final String DESCRIPTION = "Also append whole incident records (JSON lines, credentials replaced) to FILE, "
            + "kept within the incidents' retention (default: a one-line summary of each on stderr).";

    @Option(names = NAME, paramLabel = LABEL, description = DESCRIPTION)
    Path incidentLog;

    Optional<Path> file() {
        return Optional.ofNullable(incidentLog);
    }

    /** The log beside the store (wrap, gateway): see {@link IncidentLogs}. */
    IncidentSink besideTheStore(Retention retention) {
        return IncidentLogs.besideTheStore(file(), retention);
    }
}
