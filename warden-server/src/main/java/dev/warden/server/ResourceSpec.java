package dev.warden.server;

import dev.warden.core.mcp.Resources;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A resource with a fixed URI. Built with {@link #builder}, or from the wire record:
 * <pre>{@code
 * ResourceSpec.builder("notes://readme").name("readme").mimeType("text/markdown")
 *         .text(variables -> Files.readString(readme)).build()
 * }</pre>
 */
public record ResourceSpec(Resources.Resource resource, ResourceReader reader) {
    public ResourceSpec {
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(reader, "reader");
    }

    /** A resource at {@code uri}, named after it unless {@link Builder#name} says otherwise. */
    public static Builder builder(String uri) {
        return new Builder(uri);
    }

    /** Builds a {@link ResourceSpec}; a reader ({@code text}, {@code blob} or {@code reader}) is required. */
    public static final class Builder extends ResourceBuilder<Builder> {
        private OptionalLong size = OptionalLong.empty();

        private Builder(String uri) {
            super(uri);
        }

        @Override
        Builder self() {
            return this;
        }

        /** The body's size in bytes, if known, so a client can tell before reading. */
        public Builder size(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("size of resource " + address + " must not be negative");
            }
            this.size = OptionalLong.of(bytes);
            return this;
        }

        public ResourceSpec build() {
            return new ResourceSpec(new Resources.Resource(address, name, title, description, mimeType, size),
                    reader());
        }
    }
}
