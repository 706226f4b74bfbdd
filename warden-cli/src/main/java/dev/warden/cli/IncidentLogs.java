package dev.warden.cli;

import dev.warden.core.incident.IncidentSink;
import dev.warden.core.incident.JsonLinesIncidentSink;
import dev.warden.core.segment.Retention;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/**
 * The log that goes beside the incident store in {@code wrap} and {@code gateway}. On stderr, one
 * summary line per incident (the ref, the code, the method and tool, Warden's reason): the store
 * keeps the rest, owner-only, so nothing an upstream or a caller wrote (an error's original text,
 * the arguments) reaches Warden's stderr, and no incident is written twice in full. A file named
 * with {@code --incident-log} gets whole records (credentials replaced), owner-only, within the
 * incidents' retention. A child server's own stderr is another matter: {@code Upstream.stderrLog}
 * logs it sanitized at INFO (below the default level), never to a file of Warden's.
 */
final class IncidentLogs {

    private IncidentLogs() {
    }

    static IncidentSink besideTheStore(Optional<Path> file, Retention retention) {
        return file.<IncidentSink>map(f -> JsonLinesIncidentSink.file(f, JsonLinesIncidentSink.Detail.FULL, retention,
                Clock.systemUTC())).orElseGet(() -> JsonLinesIncidentSink.stderr(JsonLinesIncidentSink.Detail.SUMMARY));
    }
}
