package dev.warden.server.prompt;

import dev.warden.core.mcp.Prompts;
import java.util.Map;

/** Renders a prompt from its arguments; required arguments are checked before this is called. */
@FunctionalInterface
public interface PromptHandler {
    Prompts.GetResult get(Map<String, String> arguments) throws Exception;
}
