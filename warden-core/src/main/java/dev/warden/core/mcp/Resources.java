package dev.warden.core.mcp;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/** Records of the resources area: listing, templates, reading and subscribing. */
public final class Resources {

    public static final String LIST = "resources/list";
    public static final String TEMPLATES_LIST = "resources/templates/list";
    public static final String READ = "resources/read";
    public static final String SUBSCRIBE = "resources/subscribe";
    public static final String UNSUBSCRIBE = "resources/unsubscribe";
    public static final String UPDATED = "notifications/resources/updated";
    public static final String LIST_CHANGED = "notifications/resources/list_changed";

    private Resources() {
    }

    public record Resource(String uri, String name, Optional<String> title, Optional<String> description,
                           Optional<String> mimeType, OptionalLong size) {
        public Resource {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(name, "name");
            title = Objects.requireNonNullElse(title, Optional.empty());
            description = Objects.requireNonNullElse(description, Optional.empty());
            mimeType = Objects.requireNonNullElse(mimeType, Optional.empty());
            size = Objects.requireNonNullElse(size, OptionalLong.empty());
        }
    }

    public record Template(String uriTemplate, String name, Optional<String> title, Optional<String> description,
                           Optional<String> mimeType) {
        public Template {
            Objects.requireNonNull(uriTemplate, "uriTemplate");
            Objects.requireNonNull(name, "name");
            title = Objects.requireNonNullElse(title, Optional.empty());
            description = Objects.requireNonNullElse(description, Optional.empty());
            mimeType = Objects.requireNonNullElse(mimeType, Optional.empty());
        }
    }

    public record ListResult(List<Resource> resources, Optional<String> nextCursor) {
        public ListResult {
            resources = List.copyOf(resources);
            nextCursor = Objects.requireNonNullElse(nextCursor, Optional.empty());
        }
    }

    public record TemplatesListResult(List<Template> resourceTemplates, Optional<String> nextCursor) {
        public TemplatesListResult {
            resourceTemplates = List.copyOf(resourceTemplates);
            nextCursor = Objects.requireNonNullElse(nextCursor, Optional.empty());
        }
    }

    public record ReadParams(String uri) {
        public ReadParams {
            Objects.requireNonNull(uri, "uri");
        }
    }

    public record ReadResult(List<Contents> contents) {
        public ReadResult {
            contents = List.copyOf(contents);
        }
    }

    public record SubscribeParams(String uri) {
        public SubscribeParams {
            Objects.requireNonNull(uri, "uri");
        }
    }

    /** The body of a resource: text or base64 blob, told apart by which field is present. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
    @JsonSubTypes({@JsonSubTypes.Type(TextContents.class), @JsonSubTypes.Type(BlobContents.class)})
    public sealed interface Contents {
        String uri();
    }

    public record TextContents(String uri, Optional<String> mimeType, String text) implements Contents {
        public TextContents {
            Objects.requireNonNull(uri, "uri");
            mimeType = Objects.requireNonNullElse(mimeType, Optional.empty());
            Objects.requireNonNull(text, "text");
        }
    }

    public record BlobContents(String uri, Optional<String> mimeType, String blob) implements Contents {
        public BlobContents {
            Objects.requireNonNull(uri, "uri");
            mimeType = Objects.requireNonNullElse(mimeType, Optional.empty());
            Objects.requireNonNull(blob, "blob");
        }
    }
}
