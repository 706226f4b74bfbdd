package dev.warden.server;

import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Prompts;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A prompt's definition and the handler that renders it. Built with {@link #builder}, or from the
 * wire record:
 * <pre>{@code
 * PromptSpec.builder("greet").description("Greets someone")
 *         .argument("name", "Who to greet", true)
 *         .text(arguments -> "Say hello to " + arguments.get("name")).build()
 * }</pre>
 */
public record PromptSpec(Prompts.Prompt prompt, PromptHandler.WithInput handler) {
    public PromptSpec {
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(handler, "handler");
    }

    /** A prompt rendered from its arguments alone. */
    public PromptSpec(Prompts.Prompt prompt, PromptHandler handler) {
        this(prompt, adapt(handler));
    }

    private static PromptHandler.WithInput adapt(PromptHandler handler) {
        Objects.requireNonNull(handler, "handler");
        return (arguments, input) -> handler.get(arguments);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Builds a {@link PromptSpec}; a handler ({@code text} or {@code handler}) is required. */
    public static final class Builder {
        private final String name;
        private Optional<String> title = Optional.empty();
        private Optional<String> description = Optional.empty();
        private final List<Prompts.Argument> arguments = new ArrayList<>();
        private Optional<PromptHandler.WithInput> handler = Optional.empty();

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        public Builder title(String title) {
            this.title = Optional.of(title);
            return this;
        }

        public Builder description(String description) {
            this.description = Optional.of(description);
            return this;
        }

        /** An argument the client lists; a required one missing from a request is refused (-32602). */
        public Builder argument(String name, String description, boolean required) {
            Objects.requireNonNull(description, "description");
            return add(new Prompts.Argument(name, Optional.of(description), required));
        }

        /** An argument without a description. */
        public Builder argument(String name, boolean required) {
            return add(new Prompts.Argument(name, Optional.empty(), required));
        }

        private Builder add(Prompts.Argument argument) {
            if (arguments.stream().anyMatch(a -> a.name().equals(argument.name()))) {
                throw new IllegalArgumentException("prompt " + name + " declares argument "
                        + argument.name() + " twice");
            }
            arguments.add(argument);
            return this;
        }

        /** Renders the prompt as one user message: the text this returns. */
        public Builder text(PromptHandler.Text text) {
            Objects.requireNonNull(text, "text");
            return handler(args -> new Prompts.GetResult(Optional.empty(), List.of(
                    new Prompts.Message(Prompts.Role.USER, Content.text(text.render(args))))));
        }

        /** Renders the prompt's messages yourself (several, an assistant's, images, resources). */
        public Builder handler(PromptHandler handler) {
            this.handler = Optional.of(adapt(handler));
            return this;
        }

        /** A prompt that may ask the client for input before it renders. */
        public Builder handler(PromptHandler.WithInput handler) {
            this.handler = Optional.of(Objects.requireNonNull(handler, "handler"));
            return this;
        }

        public PromptSpec build() {
            return new PromptSpec(new Prompts.Prompt(name, title, description, arguments),
                    handler.orElseThrow(() -> new IllegalStateException(
                            "prompt " + name + " has no handler: call text or handler")));
        }
    }
}
