package dev.warden.server.prompt;

import dev.warden.core.mcp.Prompts;
import java.util.Objects;

/** A prompt's definition and the handler that renders it. */
public record PromptSpec(Prompts.Prompt prompt, PromptHandler handler) {
    public PromptSpec {
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(handler, "handler");
    }
}
