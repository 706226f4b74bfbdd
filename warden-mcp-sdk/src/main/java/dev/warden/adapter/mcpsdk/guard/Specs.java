package dev.warden.adapter.mcpsdk.guard;

import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every handler specification of the SDK's classic server API: with sessions
 * ({@link McpServerFeatures}: stdio, SSE, Streamable HTTP) and stateless
 * ({@link McpStatelessServerFeatures}), sync and async. Each comes back as the same definition with
 * its handler behind {@link Failures}; the SDK's two families share no supertype, hence one case each.
 */
public final class Specs {

    private Specs() {
    }

    /** {@code spec} guarded, or empty when it is no specification the SDK's server takes. */
    public static Optional<Object> wrap(Object spec, Failures f) {
        return Optional.ofNullable(switch (spec) {
            case McpServerFeatures.SyncToolSpecification s -> new McpServerFeatures.SyncToolSpecification(
                    s.tool(), Handlers.sync(s.callHandler(), t -> f.toolResult(t, s.tool())));
            case McpServerFeatures.AsyncToolSpecification s -> new McpServerFeatures.AsyncToolSpecification(
                    s.tool(), Handlers.answering(s.callHandler(), t -> f.toolResult(t, s.tool())));
            case McpServerFeatures.SyncResourceSpecification s -> new McpServerFeatures.SyncResourceSpecification(
                    s.resource(), Handlers.sync(s.readHandler(), raise(f, READ)));
            case McpServerFeatures.AsyncResourceSpecification s -> new McpServerFeatures.AsyncResourceSpecification(
                    s.resource(), Handlers.failing(s.readHandler(), t -> f.error(t, READ)));
            case McpServerFeatures.SyncResourceTemplateSpecification s ->
                    new McpServerFeatures.SyncResourceTemplateSpecification(
                            s.resourceTemplate(), Handlers.sync(s.readHandler(), raise(f, READ)));
            case McpServerFeatures.AsyncResourceTemplateSpecification s ->
                    new McpServerFeatures.AsyncResourceTemplateSpecification(
                            s.resourceTemplate(), Handlers.failing(s.readHandler(), t -> f.error(t, READ)));
            case McpServerFeatures.SyncPromptSpecification s -> new McpServerFeatures.SyncPromptSpecification(
                    s.prompt(), Handlers.sync(s.promptHandler(), raise(f, PROMPT)));
            case McpServerFeatures.AsyncPromptSpecification s -> new McpServerFeatures.AsyncPromptSpecification(
                    s.prompt(), Handlers.failing(s.promptHandler(), t -> f.error(t, PROMPT)));
            case McpServerFeatures.SyncCompletionSpecification s -> new McpServerFeatures.SyncCompletionSpecification(
                    s.referenceKey(), Handlers.sync(s.completionHandler(), raise(f, COMPLETE)));
            case McpServerFeatures.AsyncCompletionSpecification s ->
                    new McpServerFeatures.AsyncCompletionSpecification(
                            s.referenceKey(), Handlers.failing(s.completionHandler(), t -> f.error(t, COMPLETE)));
            case McpStatelessServerFeatures.SyncToolSpecification s ->
                    new McpStatelessServerFeatures.SyncToolSpecification(
                            s.tool(), Handlers.sync(s.callHandler(), t -> f.toolResult(t, s.tool())));
            case McpStatelessServerFeatures.AsyncToolSpecification s ->
                    new McpStatelessServerFeatures.AsyncToolSpecification(
                            s.tool(), Handlers.answering(s.callHandler(), t -> f.toolResult(t, s.tool())));
            case McpStatelessServerFeatures.SyncResourceSpecification s ->
                    new McpStatelessServerFeatures.SyncResourceSpecification(
                            s.resource(), Handlers.sync(s.readHandler(), raise(f, READ)));
            case McpStatelessServerFeatures.AsyncResourceSpecification s ->
                    new McpStatelessServerFeatures.AsyncResourceSpecification(
                            s.resource(), Handlers.failing(s.readHandler(), t -> f.error(t, READ)));
            case McpStatelessServerFeatures.SyncResourceTemplateSpecification s ->
                    new McpStatelessServerFeatures.SyncResourceTemplateSpecification(
                            s.resourceTemplate(), Handlers.sync(s.readHandler(), raise(f, READ)));
            case McpStatelessServerFeatures.AsyncResourceTemplateSpecification s ->
                    new McpStatelessServerFeatures.AsyncResourceTemplateSpecification(
                            s.resourceTemplate(), Handlers.failing(s.readHandler(), t -> f.error(t, READ)));
            case McpStatelessServerFeatures.SyncPromptSpecification s ->
                    new McpStatelessServerFeatures.SyncPromptSpecification(
                            s.prompt(), Handlers.sync(s.promptHandler(), raise(f, PROMPT)));
            case McpStatelessServerFeatures.AsyncPromptSpecification s ->
                    new McpStatelessServerFeatures.AsyncPromptSpecification(
                            s.prompt(), Handlers.failing(s.promptHandler(), t -> f.error(t, PROMPT)));
            case McpStatelessServerFeatures.SyncCompletionSpecification s ->
                    new McpStatelessServerFeatures.SyncCompletionSpecification(
                            s.referenceKey(), Handlers.sync(s.completionHandler(), raise(f, COMPLETE)));
            case McpStatelessServerFeatures.AsyncCompletionSpecification s ->
                    new McpStatelessServerFeatures.AsyncCompletionSpecification(
                            s.referenceKey(), Handlers.failing(s.completionHandler(), t -> f.error(t, COMPLETE)));
            default -> null;
        });
    }

    /** The MCP methods of the handlers that answer with errors, as their incidents name them. */
    static final String READ = "resources/read";
    static final String PROMPT = "prompts/get";
    static final String COMPLETE = "completion/complete";

    /** A sync handler's recovery that answers by throwing Warden's error, which the SDK passes through. */
    private static <T> Function<Throwable, T> raise(Failures failures, String method) {
        return t -> {
            throw failures.error(t, method);
        };
    }
}
