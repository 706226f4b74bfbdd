package dev.warden.server;

import dev.warden.core.mcp.Completion;

/**
 * Suggests values for an argument of a prompt or a resource template ({@code completion/complete}).
 * {@code ref} is {@code {"type":"ref/prompt","name":…}} or {@code {"type":"ref/resource","uri":…}};
 * an exception becomes a safe error like any handler's.
 */
@FunctionalInterface
public interface CompletionHandler {
    Completion.Values complete(Completion.CompleteParams params) throws Exception;
}
