package dev.warden.core.mcp;

import java.util.Objects;
import java.util.Optional;

/** Name and version of a client or server implementation ({@code clientInfo} / {@code serverInfo}). */
public record Implementation(String name, String version, Optional<String> title) {
    public Implementation {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        title = Objects.requireNonNullElse(title, Optional.empty());
    }

    public static Implementation of(String name, String version) {
        return new Implementation(name, version, Optional.empty());
    }
}
