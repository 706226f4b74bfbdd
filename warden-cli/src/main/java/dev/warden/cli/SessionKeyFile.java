package dev.warden.cli;

import dev.warden.gateway.config.ConfigException;
import dev.warden.gateway.config.GatewayConfig;
import dev.warden.http.server.SessionKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Optional;
import java.util.Set;

/**
 * The keys of portable sessions ({@code http.sessions.portable.keyFile}), read when the gateway
 * starts. Refused, naming the file and never a secret, when unreadable, malformed, or readable by
 * other users of the machine (as ssh refuses a private key that is).
 */
final class SessionKeyFile {

    private SessionKeyFile() {
    }

    /** The configuration's session keys, if it makes sessions portable. */
    static Optional<SessionKeys> of(GatewayConfig cfg) {
        return cfg.http().flatMap(h -> h.sessions().portable()).map(p -> read(p.keyFile()));
    }

    static SessionKeys read(Path file) {
        String where = "http.sessions.portable.keyFile " + file;
        try {
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
            if (mode.contains(PosixFilePermission.GROUP_READ) || mode.contains(PosixFilePermission.OTHERS_READ)) {
                throw new ConfigException(where + ": readable by other users; chmod 600 it");
            }
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: nothing to check
        } catch (IOException e) {
            throw new ConfigException(where + ": cannot be read");
        }
        try {
            return SessionKeys.parse(Files.readString(file));
        } catch (IOException e) {
            throw new ConfigException(where + ": cannot be read");
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ": " + e.getMessage());
        }
    }
}
