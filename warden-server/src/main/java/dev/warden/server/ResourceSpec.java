package dev.warden.server;

import dev.warden.core.mcp.Resources;
import java.util.Objects;

/** A resource with a fixed URI. */
public record ResourceSpec(Resources.Resource resource, ResourceReader reader) {
    public ResourceSpec {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(reader, "reader");
    }
}
