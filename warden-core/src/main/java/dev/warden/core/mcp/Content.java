package dev.warden.core.mcp;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/** A content block in a tool result, prompt message or sampling message. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = Content.Text.class, name = "text"),
        @JsonSubTypes.Type(value = Content.Image.class, name = "image"),
        @JsonSubTypes.Type(value = Content.Audio.class, name = "audio"),
        @JsonSubTypes.Type(value = Content.ResourceLink.class, name = "resource_link"),
        @JsonSubTypes.Type(value = Content.EmbeddedResource.class, name = "resource")
})
public sealed interface Content {

    static Content text(String text) {
        return new Text(text, Optional.empty());
    }

    record Text(String text, Optional<ObjectNode> annotations) implements Content {
        public Text {
            Objects.requireNonNull(text, "text");
            annotations = Objects.requireNonNullElse(annotations, Optional.empty());
        }
    }

    record Image(String data, String mimeType, Optional<ObjectNode> annotations) implements Content {
        public Image {
            Objects.requireNonNull(data, "data");
            Objects.requireNonNull(mimeType, "mimeType");
            annotations = Objects.requireNonNullElse(annotations, Optional.empty());
        }
    }

    record Audio(String data, String mimeType, Optional<ObjectNode> annotations) implements Content {
        public Audio {
            Objects.requireNonNull(data, "data");
            Objects.requireNonNull(mimeType, "mimeType");
            annotations = Objects.requireNonNullElse(annotations, Optional.empty());
        }
    }

    record ResourceLink(String uri, String name, Optional<String> title, Optional<String> description,
                        Optional<String> mimeType) implements Content {
        public ResourceLink {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(name, "name");
            title = Objects.requireNonNullElse(title, Optional.empty());
            description = Objects.requireNonNullElse(description, Optional.empty());
            mimeType = Objects.requireNonNullElse(mimeType, Optional.empty());
        }
    }

    record EmbeddedResource(Resources.Contents resource, Optional<ObjectNode> annotations) implements Content {
        public EmbeddedResource {
            Objects.requireNonNull(resource, "resource");
            annotations = Objects.requireNonNullElse(annotations, Optional.empty());
        }
    }
}
