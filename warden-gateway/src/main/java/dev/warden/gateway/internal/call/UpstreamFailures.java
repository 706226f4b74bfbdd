package dev.warden.gateway.internal.call;

import dev.warden.core.error.AuthorizationFailedException;
import dev.warden.core.error.ConfigurationException;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.LocalFailure;
import dev.warden.core.error.MessageTooLargeException;
import dev.warden.core.error.PeerErrorException;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.RequestTimeoutException;
import dev.warden.core.error.ToolFailure;
import dev.warden.core.error.TransportException;
import dev.warden.core.error.WardenException;
import dev.warden.core.failure.Classifier;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.session.RequestContext;
import dev.warden.gateway.internal.client.StatelessRules;
import dev.warden.gateway.internal.failure.ErrorPipeline;
import dev.warden.gateway.internal.failure.Published;
import dev.warden.gateway.internal.failure.UpstreamText;
import dev.warden.gateway.internal.limits.ConnectionSlots;
import dev.warden.gateway.internal.limits.Guard;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What an upstream's failures become for the client: its JSON-RPC errors kept where the spec
 * allows (sanitized), a tool's failure made an {@code isError} outcome, the gateway's own failures
 * recorded with the gateway's words, and an unknown tool never named back.
 */
public final class UpstreamFailures {

    private UpstreamFailures() {
    }

    /**
     * What a failed upstream request becomes: the upstream's own error as it said it, or a
     * recorded local failure; and whether the upstream answered at all, for its breaker.
     */
    static UpstreamReply.Failure failed(UpstreamLink link, ErrorPipeline pipeline, RequestContext ctx,
            Guard.Permit permit, Optional<String> tool, Throwable cause) {
        if (!(cause instanceof WardenException known)) {
            permit.unanswered(cause);
            return new UpstreamReply.Recorded(unavailable(pipeline, ctx.method(), tool, cause));
        }
        return switch (known) {
            case PeerErrorException peer -> {
                // The upstream answered: it is alive. Whether the tool failed in itself is for the
                // caller to judge once it has read the error (an internal error, or the caller's mistake).
                permit.answered();
                yield new UpstreamReply.ErrorAnswer(peer.error());
            }
            case MessageTooLargeException tooLarge -> {
                // The server answered, at more length than allowed: a setting, not the server's health.
                permit.answered();
                yield new UpstreamReply.Recorded(pipeline.local(ctx.method(), tool, ErrorCode.UPSTREAM_ERROR,
                        "The upstream server's answer is larger than the gateway accepts (maxMessageBytes, "
                                + "--max-message-bytes for warden wrap, is " + link.maxMessageBytes() + " bytes).",
                        tooLarge));
            }
            case RequestTimeoutException timeout -> {
                permit.unanswered(timeout);
                yield new UpstreamReply.Recorded(pipeline.local(ctx.method(), tool, ErrorCode.TIMEOUT,
                        "The upstream server did not answer in time.", timeout));
            }
            case LocalFailure other -> {
                permit.unanswered(other);
                yield new UpstreamReply.Recorded(unavailable(pipeline, ctx.method(), tool, other));
            }
            case ToolFailure other -> {
                permit.unanswered(other);
                yield new UpstreamReply.Recorded(unavailable(pipeline, ctx.method(), tool, other));
            }
            case ProtocolException other -> {
                permit.unanswered(other);
                yield new UpstreamReply.Recorded(unavailable(pipeline, ctx.method(), tool, other));
            }
            case TransportException lost -> {
                // Closed, expired, refused, never started, or no connection left to have.
                permit.unanswered(lost);
                yield new UpstreamReply.Recorded(unavailable(pipeline, ctx.method(), tool, lost));
            }
            case ConfigurationException misconfigured -> {
                permit.unanswered(misconfigured);
                yield new UpstreamReply.Recorded(unavailable(pipeline, ctx.method(), tool, misconfigured));
            }
        };
    }

    /** No answer could be had: the upstream cannot be reached, refused the gateway, or has no place left. */
    public static ErrorPipeline.Outcome unavailable(ErrorPipeline pipeline, String method, Optional<String> tool,
            Throwable cause) {
        if (cause instanceof ConnectionSlots.AtCapacity full) {
            // Its message is the gateway's own words, naming the setting.
            return pipeline.local(method, tool, ErrorCode.RATE_LIMITED, full.getMessage(), cause);
        }
        String message = cause instanceof AuthorizationFailedException
                ? "The gateway could not authorize with the upstream server."
                : "The upstream server is unavailable.";
        return pipeline.local(method, tool, ErrorCode.UPSTREAM_ERROR, message, cause);
    }

    /**
     * The upstream's error for a request that is not a tool call: -32601 as the gateway's own,
     * a version's rule as that version says, else sanitized with its JSON-RPC code kept.
     */
    static RuntimeException forwarded(ErrorPipeline pipeline, RequestContext ctx, JsonRpcError error) {
        if (error.code() == JsonRpcError.METHOD_NOT_FOUND) {
            return ProtocolException.methodNotFound();
        }
        Optional<ProtocolException> version = StatelessRules.versionRule(error);
        if (version.isPresent()) {
            return version.get();
        }
        return pipeline.rpcError(error.code(), pipeline.failure(ctx.method(), Optional.empty(),
                ErrorPipeline.Said.of(error), withoutEvidence(error), ctx.params()));
    }

    /**
     * What a request the gateway made of an upstream on the client's behalf (a subscription) ends
     * with when it fails: the upstream's error, else the upstream unavailable.
     */
    public static RuntimeException ofOwnRequest(ErrorPipeline pipeline, RequestContext ctx, String method,
            RuntimeException e) {
        return e instanceof PeerErrorException peer ? ofOwnRequest(pipeline, ctx, method, peer.error())
                : pipeline.rpcError(JsonRpcError.INTERNAL_ERROR, unavailable(pipeline, method, Optional.empty(), e));
    }

    /** The upstream's error for such a request: -32601 as the gateway's own, else sanitized with its code kept. */
    private static RuntimeException ofOwnRequest(ErrorPipeline pipeline, RequestContext ctx, String method,
            JsonRpcError error) {
        if (error.code() == JsonRpcError.METHOD_NOT_FOUND) {
            return ProtocolException.methodNotFound();
        }
        return pipeline.rpcError(error.code(), pipeline.failure(method, Optional.empty(), ErrorPipeline.Said.of(error),
                withoutEvidence(error), ctx.params()));
    }

    /** What a JSON-RPC error with no evidence in it is: -32602 the request's params, else the server failing. */
    static ErrorCode withoutEvidence(JsonRpcError error) {
        return Classifier.withoutEvidence(Classifier.Answer.ofJsonRpc(error.code()));
    }

    /**
     * A JSON-RPC error answering a call: an unknown tool or a bad request stays a protocol error
     * (the tool's name is not repeated); anything else is really the tool failing (the ash_ai
     * pattern: -32000 "Tool execution failed" with the detail in {@code data}), so it becomes an
     * {@code isError} result the model can read, with that detail sanitized.
     */
    static ErrorPipeline.Outcome toolError(UpstreamLink link, ErrorPipeline pipeline, String tool,
            JsonRpcError error, Optional<JsonNode> params, Published published) {
        Optional<ProtocolException> version = StatelessRules.versionRule(error);
        if (version.isPresent()) {
            throw version.get();
        }
        if (error.code() == JsonRpcError.METHOD_NOT_FOUND && !offersTools(link)) {
            throw ProtocolException.methodNotFound();
        }
        // From a server that has tools, -32601 is something inside the tool (the TypeScript SDK
        // passes on a client's -32601 to a request it made mid-call): the tool failed.
        if (error.code() == JsonRpcError.INVALID_PARAMS) {
            throw pipeline.rpcError(JsonRpcError.INVALID_PARAMS, pipeline.failure("tools/call", Optional.of(tool),
                    ErrorPipeline.Said.of(error), withoutEvidence(error), params, published));
        }
        // It becomes the tool's answer to this call, and is read as one: a thrown refusal ("customer
        // is blocked", -32603 from the TypeScript SDK v1's low-level server) is no evidence of failing.
        return pipeline.failure("tools/call", Optional.of(tool), ErrorPipeline.Said.of(error),
                Classifier.withoutEvidence(Classifier.Answer.TOOL_RESULT), params, published);
    }

    private static boolean offersTools(UpstreamLink link) {
        return link.connected().map(c -> c.serverCapabilities().has("tools")).orElse(false);
    }

    /** -32602 by the spec; -32603 from servers on older SDKs ("Unknown tool: x", "Tool not found: x"). */
    static boolean unknownTool(JsonRpcError error) {
        return error.code() == JsonRpcError.INVALID_PARAMS && unknownTool(error.message())
                || error.code() == JsonRpcError.INTERNAL_ERROR
                && saysUnknownTool(ErrorPipeline.withoutSdkPrefix(error.message()));
    }

    static boolean unknownTool(String text) {
        String t = (text.length() > 4096 ? text.substring(0, 4096) : text).toLowerCase(Locale.ROOT);
        return t.contains("unknown tool") || t.contains("tool not found") || saysUnknownTool(text);
    }

    /**
     * A text that is only the server saying it has no such tool (its first words say so, after
     * the TypeScript SDK's "MCP error -32602: " prefix): "Unknown tool: x", "Tool not found: x",
     * "Tool x not found". Not any text starting "Tool" with "not found" in it: the Java SDK's
     * "Tool (x) input validation failed: $: required property 'email' not found" is the caller's
     * arguments failing the schema, and the model needs to read it.
     */
    static boolean saysUnknownTool(String message) {
        String m = UpstreamText.withoutSdkPrefix(message);
        String t = (m.length() > 256 ? m.substring(0, 256) : m).strip().toLowerCase(Locale.ROOT);
        if (t.startsWith("unknown tool") || t.startsWith("tool not found")) {
            return true;
        }
        if (!t.startsWith("tool ") || t.indexOf('\n') >= 0) {
            return false;
        }
        String rest = t.substring("tool ".length());
        int end = rest.indexOf(' ');
        String after = end < 0 ? "" : rest.substring(end);
        return end > 0 && (after.equals(" not found") || after.equals(" not found."));
    }

    /**
     * The name is the caller's input: it is not repeated back, but the operator sees it in the
     * incident behind the ref (with the arguments).
     */
    static ProtocolException unknownTool(ErrorPipeline pipeline, String name, RequestContext ctx) {
        return new ProtocolException(JsonRpcError.INVALID_PARAMS, unknownTool(pipeline, name, ctx, Optional.empty())
                .visible());
    }

    /**
     * As {@link #unknownTool(ErrorPipeline, String, RequestContext)}, as an outcome: when the
     * upstream said it ({@code said}), the incident keeps its words.
     */
    static ErrorPipeline.Outcome unknownTool(ErrorPipeline pipeline, String name, RequestContext ctx,
            Optional<ErrorPipeline.Said> said) {
        return pipeline.unknown(ctx.method(), name, ErrorPipeline.argumentsOf(ctx.params()), said);
    }
}
