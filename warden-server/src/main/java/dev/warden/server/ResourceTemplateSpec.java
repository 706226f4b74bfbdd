package dev.warden.server;

import dev.warden.core.mcp.Resources;
import java.util.Objects;

/** Resources addressed by an RFC 6570 level-1 URI template such as {@code docs://{id}}. */
public record ResourceTemplateSpec(Resources.Template template, ResourceReader reader, UriTemplate matcher) {
    public ResourceTemplateSpec {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(matcher, "matcher");
    }

    public static ResourceTemplateSpec of(Resources.Template template, ResourceReader reader) {
        return new ResourceTemplateSpec(template, reader, UriTemplate.parse(template.uriTemplate()));
    }
}
