package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A directory published to the caller (the client's roots, one the user gave the server on its
 * command line) is no secret: paths in it come back; paths elsewhere, or climbing out of it, do not.
 */
class PublishedDirectoriesTest {

    private final Sanitizer sanitizer = Sanitizer.ofDefaults();

    // @modelcontextprotocol/server-filesystem's refusal (dist/lib.js), for a call reading /etc/passwd
    private static final String REFUSAL = "Access denied - path outside allowed directories: /etc/passwd not in "
            + "/srv/data, /home/ada/project";

    private String redact(String text, CallerInput caller) {
        return sanitizer.sanitize(text, Policy.REDACT, ErrorCode.PERMISSION_DENIED, caller).output();
    }

    @Test
    void theAllowedDirectoriesTheUserConfiguredComeBack() {
        CallerInput caller = CallerInput.of(Json.object().put("path", "/etc/passwd"))
                .andDirectories(List.of("/srv/data", "file:///home/ada/project/"));
        assertThat(redact(REFUSAL, caller)).isEqualTo(REFUSAL);
    }

    @Test
    void withoutThemTheServersDirectoriesAreRedacted() {
        CallerInput caller = CallerInput.of(Json.object().put("path", "/etc/passwd"));
        assertThat(redact(REFUSAL, caller)).isEqualTo("Access denied - path outside allowed directories: /etc/passwd "
                + "not in [redacted:path], [redacted:path]");
    }

    @Test
    void aPathBelowAPublishedDirectoryComesBack() {
        CallerInput caller = CallerInput.none().andDirectories(List.of("file:///home/ada/project"));
        assertThat(redact("ENOENT: no such file or directory, open '/home/ada/project/src/cart.ts'", caller))
                .isEqualTo("ENOENT: no such file or directory, open '/home/ada/project/src/cart.ts'");
    }

    @Test
    void aPathClimbingOutOrBesideIsStillRedacted() {
        CallerInput caller = CallerInput.none().andDirectories(List.of("/srv/data", "/"));
        assertThat(redact("cannot open /srv/data/../app/.env or /srv/database/dump.sql", caller))
                .isEqualTo("cannot open [redacted:path] or [redacted:path]");
    }
}
