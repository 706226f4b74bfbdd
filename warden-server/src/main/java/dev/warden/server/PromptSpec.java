package dev.warden.server;

import dev.warden.core.mcp.Prompts;
import java.util.Objects;

/** A prompt's definition and the handler that renders it. */
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
}
