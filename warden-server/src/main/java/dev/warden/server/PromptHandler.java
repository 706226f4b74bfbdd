package dev.warden.server;

import dev.warden.core.mcp.Prompts;
import java.util.Map;

/** Renders a prompt from its arguments; required arguments are checked before this is called. */
@FunctionalInterface
public interface PromptHandler {
    Prompts.GetResult get(Map<String, String> arguments) throws Exception;

    /**
     * A prompt that needs input from the client before it renders (2026-07-28: the request
     * answers with an input-required result, and runs again with the answers).
     */
    @FunctionalInterface
    interface WithInput {
        Prompts.GetResult get(Map<String, String> arguments, InputContext input) throws Exception;
    }

    /** A prompt that renders to one user message of text ({@link PromptSpec.Builder#text}). */
    @FunctionalInterface
    interface Text {
        String render(Map<String, String> arguments) throws Exception;
    }
}
