package dev.warden.server.internal;

import dev.warden.core.error.CapturedFailure;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.ValidationFailure;
import dev.warden.core.error.Violation;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Lifecycle;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.ProtocolVersion;
import dev.warden.core.mcp.Tools;
import dev.warden.core.session.OutgoingRequest;
import dev.warden.core.session.RequestContext;
import dev.warden.server.McpServer;
import dev.warden.server.ServerConnection;
import dev.warden.server.tool.ToolCall;
import dev.warden.server.tool.ToolContext;
import dev.warden.server.tool.ToolResult;
import dev.warden.server.tool.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tools/list} and {@code tools/call}: the error boundary for tools. Protocol problems
 * (unknown tool, params that are not an object) are JSON-RPC errors; everything that happens once
 * the tool is known (invalid arguments, failures, bugs) is an {@code isError} result.
 */
public final class ToolCalls {

    private final McpServer server;
    private final ServerConnection connection;
    private final List<Tools.Tool> listing;
    private final RequestStates states;

    public ToolCalls(McpServer server, ServerConnection connection, RequestStates states) {
        this.server = server;
        this.connection = connection;
        this.states = states;
        this.listing = server.tools().values().stream().map(ToolSpec::tool).toList();
    }

    public JsonNode list(RequestContext context) {
        Cursor.Page<Tools.Tool> page = Cursor.page(listing,
                Params.optionalString(Params.object(context.params()), "cursor"), server.pageSize());
        return Json.tree(new Tools.ListResult(page.items(), page.nextCursor()));
    }

    public JsonNode call(RequestContext context) throws Exception {
        ObjectNode params = Params.object(context.params());
        String name = Params.requiredString(params, "name");
        ToolSpec spec = server.tools().get(name);
        if (spec == null) {
            // The name is the caller's input: it is not repeated back.
            throw new ProtocolException(JsonRpcError.INVALID_PARAMS, "Unknown tool", ErrorCode.NOT_FOUND);
        }
        ObjectNode arguments = Params.optionalObject(params, "arguments").orElseGet(Json::object);
        FailureContext where = FailureContext.tool(Tools.CALL, name);
        boolean errorsAsStructuredContent = spec.tool().outputSchema().isEmpty();

        List<Violation> violations = spec.inputValidator().validate(arguments);
        if (!violations.isEmpty()) {
            return failure(server.boundary().capture(new ValidationFailure(violations), where),
                    errorsAsStructuredContent);
        }
        ToolResult result;
        Context toolContext = new Context(context, name, answersOf(context, name, params));
        try {
            result = spec.handler().call(new ToolCall(name, arguments.deepCopy(), toolContext));
        } catch (InputRequired asked) {
            return inputRequired(name, asked, toolContext);
        } catch (Throwable t) {
            if (context.cancelled()) {
                throw new InterruptedException("cancelled");
            }
            if (t instanceof ProtocolException p && p.code() == JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY) {
                throw p; // a protocol error the version defines, raised by requestClient: not a tool failure
            }
            return failure(server.boundary().capture(t, where), errorsAsStructuredContent);
        }
        return switch (result) {
            case null -> failure(server.boundary().capture(
                    new IllegalStateException("tool " + name + " returned null"), where), errorsAsStructuredContent);
            case ToolResult.Failed failed -> failure(server.boundary().capture(failed.failure(), where),
                    errorsAsStructuredContent);
            case ToolResult.Success success -> success(spec, success, where);
        };
    }

    /**
     * The answers this round can use (2026-07-28): those carried by a verified requestState, then
     * this retry's inputResponses. Empty for the session-based versions.
     */
    private ObjectNode answersOf(RequestContext context, String tool, ObjectNode params) {
        ObjectNode answers = Json.object();
        if (!connection.versionOf(context).map(ProtocolVersion::stateless).orElse(false)) {
            return answers;
        }
        JsonNode state = params.get("requestState");
        if (state != null && state.isString()) {
            answers.setAll(states.verify(tool, state.stringValue()));
        }
        JsonNode responses = params.get("inputResponses");
        if (responses instanceof ObjectNode given) {
            answers.setAll(given);
        }
        return answers;
    }

    /** The result that asks for input: what is missing, and a signed state with what was given. */
    private JsonNode inputRequired(String tool, InputRequired asked, Context context) {
        ObjectNode result = Json.object();
        result.put("resultType", "input_required");
        result.set("inputRequests", asked.inputRequests());
        result.put("requestState", states.sign(tool, context.used()));
        return result;
    }

    private JsonNode success(ToolSpec spec, ToolResult.Success success, FailureContext where) {
        if (spec.outputValidator().isPresent()) {
            if (success.structuredContent().isEmpty()) {
                return failure(server.boundary().capture(new IllegalStateException("tool " + spec.name()
                        + " declares an outputSchema but returned no structuredContent"), where), false);
            }
            List<Violation> problems = spec.outputValidator().get().validate(success.structuredContent().get());
            if (!problems.isEmpty()) {
                return failure(server.boundary().capture(new IllegalStateException("tool " + spec.name()
                        + " returned structuredContent that violates its outputSchema: " + problems), where), false);
            }
        }
        List<Content> content = new ArrayList<>(success.content());
        if (content.isEmpty() && success.structuredContent().isPresent()) {
            content.add(Content.text(success.structuredContent().get().toString()));
        }
        return Json.tree(new Tools.CallResult(content, success.structuredContent(), false));
    }

    private static JsonNode failure(CapturedFailure captured, boolean withStructuredContent) {
        return Json.tree(ErrorRenderer.toolResult(captured, withStructuredContent));
    }

    private final class Context implements ToolContext {
        private final RequestContext request;
        private final String tool;
        private final ObjectNode answers;
        /** The answers the tool asked for so far this round: only these go into the next state. */
        private final ObjectNode used = Json.object();

        Context(RequestContext request, String tool, ObjectNode answers) {
            this.request = request;
            this.tool = tool;
            this.answers = answers;
        }

        ObjectNode used() {
            return used;
        }

        @Override
        public ObjectNode input(String key, String method, ObjectNode params) throws Exception {
            ObjectNode request = Json.object();
            request.put("method", method);
            request.set("params", params);
            return inputs(java.util.Map.of(key, request)).get(key);
        }

        @Override
        public java.util.Map<String, ObjectNode> inputs(java.util.Map<String, ObjectNode> requests) throws Exception {
            java.util.Map<String, ObjectNode> out = new java.util.LinkedHashMap<>();
            if (!connection.versionOf(request).map(ProtocolVersion::stateless).orElse(false)) {
                for (java.util.Map.Entry<String, ObjectNode> e : requests.entrySet()) {
                    out.put(e.getKey(), requestClient(e.getValue().path("method").asString(""),
                            e.getValue().get("params") instanceof ObjectNode p ? p : Json.object()));
                }
                return out;
            }
            ObjectNode missing = Json.object();
            for (java.util.Map.Entry<String, ObjectNode> e : requests.entrySet()) {
                requireCapability(e.getValue().path("method").asString(""));
                JsonNode answer = answers.get(e.getKey());
                if (answer instanceof ObjectNode given) {
                    used.set(e.getKey(), given);
                    out.put(e.getKey(), given);
                } else {
                    missing.set(e.getKey(), e.getValue());
                }
            }
            if (!missing.isEmpty()) {
                throw new InputRequired(missing);
            }
            return out;
        }

        /**
         * The client must have declared what a request to it needs: in 2026-07-28 that is the
         * version's -32021; before, a server bug (INTERNAL_ERROR with a ref).
         */
        private void requireCapability(String method) {
            Optional<String> capability = Lifecycle.capabilityFor(method);
            if (capability.isPresent()
                    && connection.clientCapabilities(request).map(c -> c.get(capability.get())).isEmpty()) {
                if (connection.versionOf(request).map(ProtocolVersion::stateless).orElse(false)) {
                    throw ProtocolException.missingClientCapability(capability.get());
                }
                throw new IllegalStateException("the client did not declare the " + capability.get() + " capability");
            }
        }

        @Override
        public void progress(double progress, double total, String message) {
            request.progress(progress, Double.isNaN(total) ? OptionalDouble.empty() : OptionalDouble.of(total),
                    Optional.ofNullable(message));
        }

        @Override
        public boolean cancelled() {
            return request.cancelled();
        }

        @Override
        public void log(Logging.Level level, String trustedMessage) {
            connection.log(request, level, tool, trustedMessage);
        }

        @Override
        public ObjectNode requestClient(String method, ObjectNode params) throws Exception {
            requireCapability(method);
            OutgoingRequest out = request.session().request(method, params);
            try {
                JsonNode result = out.get();
                return result instanceof ObjectNode o ? o : Json.object();
            } catch (InterruptedException e) {
                out.cancel("The tool call was cancelled");
                throw e;
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }

        @Override
        public Optional<ObjectNode> clientCapabilities() {
            return connection.clientCapabilities(request).map(ObjectNode::deepCopy);
        }

        @Override
        public boolean closeStream() {
            return request.closeStream();
        }
    }
}
