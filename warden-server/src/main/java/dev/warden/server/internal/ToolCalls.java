package dev.warden.server.internal;

import dev.warden.core.error.CapturedFailure;
import dev.warden.core.incident.ErrorBoundary;
import dev.warden.core.error.ErrorRenderer;
import dev.warden.core.error.FailureContext;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.error.ValidationFailure;
import dev.warden.core.error.Violation;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.mcp.Content;
import dev.warden.core.mcp.Logging;
import dev.warden.core.mcp.Tools;
import dev.warden.core.protocol.Pages;
import dev.warden.core.session.RequestContext;
import dev.warden.server.ToolCall;
import dev.warden.server.ToolContext;
import dev.warden.server.ToolResult;
import dev.warden.server.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code tools/list} and {@code tools/call}: the error boundary for tools. Protocol problems
 * (unknown tool, params that are not an object) are JSON-RPC errors; everything that happens once
 * the tool is known (invalid arguments, failures, bugs) is an {@code isError} result.
 */
public final class ToolCalls {

    private final Catalog catalog;
    private final ErrorBoundary boundary;
    private final ConnectedClient client;
    private final List<Tools.Tool> listing;
    private final RequestStates states;

    public ToolCalls(Catalog catalog, ErrorBoundary boundary, ConnectedClient client, RequestStates states) {
        this.catalog = catalog;
        this.boundary = boundary;
        this.client = client;
        this.states = states;
        this.listing = catalog.tools().values().stream().map(ToolSpec::tool).toList();
    }

    public JsonNode list(RequestContext context) {
        Pages.Page<Tools.Tool> page = Pages.page(listing,
                Params.optionalString(Params.object(context.params()), Pages.CURSOR), catalog.pageSize());
        return Json.tree(new Tools.ListResult(page.items(), page.nextCursor()));
    }

    public JsonNode call(RequestContext context) throws Exception {
        ObjectNode params = Params.object(context.params());
        String name = Params.requiredString(params, "name");
        ToolSpec spec = catalog.tools().get(name);
        if (spec == null) {
            // The name is the caller's input: it is not repeated back.
            throw ProtocolException.unknown("Unknown tool");
        }
        ObjectNode arguments = Params.optionalObject(params, "arguments").orElseGet(Json::object);
        FailureContext where = FailureContext.tool(Tools.CALL, name);
        boolean errorsAsStructuredContent = spec.tool().outputSchema().isEmpty();

        List<Violation> violations = spec.inputValidator().validate(arguments);
        if (!violations.isEmpty()) {
            return failure(boundary.capture(new ValidationFailure(violations), where),
                    errorsAsStructuredContent);
        }
        ToolResult result;
        InputRound round = new InputRound(context, client, states, Tools.CALL, name, params);
        try {
            result = spec.handler().call(
                    new ToolCall(name, arguments.deepCopy(), new Context(context, name, round, client)));
        } catch (InputRequired asked) {
            return round.inputRequired(asked);
        } catch (Throwable t) {
            if (context.cancelled()) {
                throw new InterruptedException("cancelled");
            }
            if (t instanceof ProtocolException p && p.code() == JsonRpcError.MISSING_REQUIRED_CLIENT_CAPABILITY) {
                throw p; // a protocol error the version defines, raised by requestClient: not a tool failure
            }
            return failure(boundary.capture(t, where), errorsAsStructuredContent);
        }
        return switch (result) {
            case null -> failure(boundary.capture(
                    new IllegalStateException("tool " + name + " returned null"), where), errorsAsStructuredContent);
            case ToolResult.Failed failed -> failure(boundary.capture(failed.failure(), where),
                    errorsAsStructuredContent);
            case ToolResult.Success success -> success(spec, success, where);
        };
    }

    private JsonNode success(ToolSpec spec, ToolResult.Success success, FailureContext where) {
        if (spec.outputValidator().isPresent()) {
            if (success.structuredContent().isEmpty()) {
                return failure(boundary.capture(new IllegalStateException("tool " + spec.name()
                        + " declares an outputSchema but returned no structuredContent"), where), false);
            }
            List<Violation> problems = spec.outputValidator().get().validate(success.structuredContent().get());
            if (!problems.isEmpty()) {
                return failure(boundary.capture(new IllegalStateException("tool " + spec.name()
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

    /** What a running tool can reach: its request, its input rounds and the client it logs to. */
    private record Context(RequestContext request, String tool, InputRound round, ConnectedClient client)
            implements ToolContext {

        @Override
        public ObjectNode input(String key, String method, ObjectNode params) throws Exception {
            return round.input(key, method, params);
        }

        @Override
        public Map<String, ObjectNode> inputs(Map<String, ObjectNode> requests) throws Exception {
            return round.inputs(requests);
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
            client.log(request, level, tool, trustedMessage);
        }

        @Override
        public ObjectNode requestClient(String method, ObjectNode params) throws Exception {
            return round.requestClient(method, params);
        }

        @Override
        public Optional<ObjectNode> clientCapabilities() {
            return round.clientCapabilities();
        }

        @Override
        public boolean closeStream() {
            return request.closeStream();
        }
    }
}
