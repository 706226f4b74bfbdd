package dev.warden.cli;

import dev.warden.auth.AuthConfig;
import dev.warden.core.identity.Authenticator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@code --auth FILE}: a file holding what warden.yaml's {@code auth:} section holds, for a server
 * the SDK serves ({@code warden demo --http}): the same resource server as the gateway's.
 */
final class AuthFile {

    private AuthFile() {
    }

    static Authenticator read(Path file) throws IOException {
        JsonNode section = YAMLMapper.builder().build().readTree(Files.readString(file));
        Path dir = file.toAbsolutePath().getParent();
        return AuthConfig.read(section, file.getFileName().toString(), dir, System::getenv).build();
    }
}
