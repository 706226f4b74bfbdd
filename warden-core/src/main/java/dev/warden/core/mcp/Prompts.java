package dev.warden.core.mcp;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Records of the prompts area. */
public final class Prompts {

    public static final String LIST = "prompts/list";
    public static final String GET = "prompts/get";
    public static final String LIST_CHANGED = "notifications/prompts/list_changed";

    private Prompts() {
    }

    public record Prompt(String name, Optional<String> title, Optional<String> description,
                         List<Argument> arguments) {
        public Prompt {
            Objects.requireNonNull(name, "name");
            title = Objects.requireNonNullElse(title, Optional.empty());
            description = Objects.requireNonNullElse(description, Optional.empty());
            arguments = arguments == null ? List.of() : List.copyOf(arguments);
        }
    }

    public record Argument(String name, Optional<String> description, boolean required) {
        public Argument {
            Objects.requireNonNull(name, "name");
            description = Objects.requireNonNullElse(description, Optional.empty());
        }
    }

    public record ListResult(List<Prompt> prompts, Optional<String> nextCursor) {
        public ListResult {
            prompts = List.copyOf(prompts);
            nextCursor = Objects.requireNonNullElse(nextCursor, Optional.empty());
        }
    }

    public record GetParams(String name, Map<String, String> arguments) {
        public GetParams {
            Objects.requireNonNull(name, "name");
            arguments = arguments == null ? Map.of() : Map.copyOf(arguments);
        }
    }

    public record GetResult(Optional<String> description, List<Message> messages) {
        public GetResult {
            description = Objects.requireNonNullElse(description, Optional.empty());
            messages = List.copyOf(messages);
        }
    }

    public record Message(Role role, Content content) {
        public Message {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(content, "content");
        }
    }

    public enum Role {
        USER("user"), ASSISTANT("assistant");

        private final String wire;

        Role(String wire) {
            this.wire = wire;
        }

        @JsonValue
        public String wire() {
            return wire;
        }
    }
}
