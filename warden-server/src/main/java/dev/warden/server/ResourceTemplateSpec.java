package dev.warden.server;

import dev.warden.core.mcp.Resources;
import java.util.Objects;

/**
 * Resources addressed by an RFC 6570 level-1 URI template such as {@code docs://{id}}; the reader
 * gets the template's values:
 * <pre>{@code
 * ResourceTemplateSpec.builder("notes://{id}").name("note").mimeType("text/plain")
 *         .text(variables -> notes.read(variables.get("id"))).build()
 * }</pre>
 */
public record ResourceTemplateSpec(Resources.Template template, ResourceReader reader, UriTemplate matcher) {
    public ResourceTemplateSpec {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(reader, "reader");
        Objects.requireNonNull(matcher, "matcher");
    }

    public static ResourceTemplateSpec of(Resources.Template template, ResourceReader reader) {
        return new ResourceTemplateSpec(template, reader, UriTemplate.parse(template.uriTemplate()));
    }

    /** Resources whose URIs match {@code uriTemplate}, named after it unless {@link Builder#name} says otherwise. */
    public static Builder builder(String uriTemplate) {
        return new Builder(uriTemplate);
    }

    /** Builds a {@link ResourceTemplateSpec}; the template is checked when it is built. */
    public static final class Builder extends ResourceBuilder<Builder> {
        private Builder(String uriTemplate) {
            super(uriTemplate);
        }

        @Override
        Builder self() {
            return this;
        }

        public ResourceTemplateSpec build() {
            return of(new Resources.Template(address, name, title, description, mimeType), reader());
        }
    }
}
