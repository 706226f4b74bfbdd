package dev.warden.gateway.internal.call;

import dev.warden.client.McpClient;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.failure.Classifier;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.session.RequestContext;
import dev.warden.gateway.internal.access.CallerAccess;
import dev.warden.gateway.internal.catalog.ConnectionLinks;
import dev.warden.gateway.internal.catalog.Naming;
import dev.warden.gateway.internal.client.ClientProfile;
import dev.warden.gateway.internal.client.StatelessRules;
import dev.warden.gateway.internal.failure.ErrorPipeline;
import dev.warden.gateway.internal.failure.Published;
import dev.warden.gateway.internal.limits.Guard;
import dev.warden.gateway.internal.upstream.TaskOwners;
import dev.warden.gateway.internal.upstream.UpstreamLink;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code tools/call} through the gateway, in the order of ARCHITECTURE.md: the client's session
 * hands it over (audited around this by {@link dev.warden.gateway.internal.audit.AuditTrail#around}); it is routed to the upstream
 * that has the tool (policy: a tool it hides does not exist); the pipeline's limits admit it (the
 * client's rate, the upstream's concurrency and breaker); it goes upstream within its timeout; the
 * reply is normalized (a JSON-RPC error that is really the tool failing becomes an {@code isError}
 * result) and sanitized; the tool's breaker learns how it fared; and the answer goes back to the
 * session, which records and sends it.
 */
public final class ToolCallFlow {

    private final ConnectionLinks links;
    private final ClientProfile profile;
    private final Services services;
    private final UpstreamCalls calls;
    private final CallerAccess access;

    public ToolCallFlow(ConnectionLinks links, ClientProfile profile, Services services, UpstreamCalls calls,
            CallerAccess access) {
        this.access = access;
        this.links = links;
        this.profile = profile;
        this.services = services;
        this.calls = calls;
    }

    /** The call, top to bottom. */
    public JsonNode call(RequestContext ctx) throws Exception {
        ObjectNode params = UpstreamCalls.params(ctx);
        String exposed = params.path("name").asString("");
        Naming.Target target = route(ctx, exposed);
        params.put("name", target.name());
        boolean structured = structured(exposed);
        headersAgree(ctx, exposed, profile, services);
        List<Guard.Permit> permit = new ArrayList<>(1);
        UpstreamReply reply = upstreamCall(target, ctx, params, permit);
        return answer(target, exposed, ctx, structured, permit, reply);
    }

    /** Route: the upstream that has the tool, if policy lets the client see it; else an unknown tool. */
    Naming.Target route(RequestContext ctx, String exposed) {
        return visible(exposed).orElseThrow(() -> UpstreamFailures.unknownTool(profile.pipeline(links.resolve(exposed)
                .map(Naming.Target::link).orElse(links.first())), exposed, ctx));
    }

    /** The upstream and its name for a tool the client may call (policy and access rules), if there is one. */
    public Optional<Naming.Target> visible(String exposed) {
        return links.resolve(exposed).filter(t -> t.link().spec().exposes(t.name())
                && services.pins().callable(t.link().name(), t.name()) && access.tool(t.link().name(), t.name()));
    }

    /** Whether a failure is also given as structured content: not for a tool whose output schema it would break. */
    public boolean structured(String exposed) {
        return !services.tools().hasOutputSchema(exposed);
    }

    /**
     * Over HTTP a stateless call's Mcp-Param-* headers must agree with the arguments the tool
     * marks for them (an intermediary may have routed on them): else the version's -32020.
     */
    static void headersAgree(RequestContext ctx, String exposed, ClientProfile profile, Services services) {
        if (!StatelessRules.stateless(ctx) || profile.headers().isEmpty()) {
            return;
        }
        Optional<String> bad = services.tools().paramHeaders(exposed).flatMap(h -> h.mismatch(
                profile.headers().get()::header, ctx.params().map(p -> p.path("arguments")).orElseGet(Json::object)));
        if (bad.isPresent()) {
            throw ProtocolException.headerMismatch("Header mismatch: " + bad.get()
                    + " is missing, malformed or differs from the arguments");
        }
    }

    /** Limits, then the upstream within the tool's timeout; the permit is kept for the tool's verdict. */
    private UpstreamReply upstreamCall(Naming.Target target, RequestContext ctx, ObjectNode params,
            List<Guard.Permit> permit) throws Exception {
        UpstreamLink link = target.link();
        try {
            return calls.send(link, ctx, params, link.spec().timeoutFor(target.name()), Optional.of(target.name()),
                    permit::add);
        } catch (Exception | Error e) {
            permit.forEach(p -> p.judged(Guard.Verdict.CALLERS_FAULT));
            throw e;
        }
    }

    /**
     * Normalize and sanitize: what the client gets for the upstream's reply, and how the tool
     * fared, for its breaker: only its own failures count, never the caller's mistakes.
     */
    public JsonNode answer(Naming.Target target, String exposed, RequestContext ctx, boolean structured,
            List<Guard.Permit> permit, UpstreamReply reply) {
        UpstreamLink link = target.link();
        String tool = target.name();
        ErrorPipeline pipeline = profile.pipeline(link);
        Guard.Verdict verdict = Guard.Verdict.CALLERS_FAULT;
        try {
            switch (reply) {
                case UpstreamReply.ErrorAnswer(JsonRpcError error) -> {
                    if (UpstreamFailures.unknownTool(error)) {
                        throw new ProtocolException(JsonRpcError.INVALID_PARAMS, UpstreamFailures.unknownTool(pipeline,
                                exposed, ctx, Optional.of(ErrorPipeline.Said.of(error))).visible());
                    }
                    ErrorPipeline.Outcome outcome = UpstreamFailures.toolError(link, pipeline, tool, error, ctx.params(),
                            published(link, exposed));
                    verdict = verdictOf(link, outcome);
                    return pipeline.toolError(outcome, structured);
                }
                case UpstreamReply.Recorded(ErrorPipeline.Outcome outcome) -> {
                    return pipeline.toolError(outcome, structured);
                }
                case UpstreamReply.Answered(JsonNode result) when !result.path("isError").asBoolean(false) -> {
                    verdict = Guard.Verdict.WORKED;
                    // A call run as a task: the task is the caller's (see TaskOwners).
                    TaskOwners.createdBy(result).ifPresent(task -> created(link, ctx, task, exposed, tool));
                    JsonNode clean = pipeline.cleanSuccess(tool, result);
                    profile.shown().result(clean);
                    return clean;
                }
                case UpstreamReply.Answered(JsonNode result) -> {
                    // An isError result is the tool's answer and stays one (as the client would
                    // get it directly), even one saying there is no such tool: then the name is
                    // not repeated, and the server's words are in the incident.
                    if (UpstreamFailures.saysUnknownTool(ErrorPipeline.errorText(result))) {
                        return pipeline.toolError(UpstreamFailures.unknownTool(pipeline, exposed, ctx,
                                Optional.of(ErrorPipeline.Said.ofResult(result))), structured);
                    }
                    ErrorPipeline.Outcome outcome = pipeline.failure("tools/call", Optional.of(tool),
                            ErrorPipeline.Said.ofResult(result),
                            Classifier.withoutEvidence(Classifier.Answer.TOOL_RESULT), ctx.params(),
                            published(link, exposed));
                    verdict = verdictOf(link, outcome);
                    return pipeline.toolError(outcome, structured);
                }
            }
        } finally {
            Guard.Verdict v = verdict;
            permit.forEach(p -> p.judged(v));
        }
    }

    /**
     * What the server published to this caller, which its failure may repeat ({@link Published}):
     * the tool's definition, this session's earlier results, the directories on the server's
     * command line and the client's roots, and the names of the server's tools this caller may see.
     */
    private Published published(UpstreamLink link, String exposed) {
        List<String> values = new ArrayList<>(services.tools().published(exposed));
        values.addAll(profile.shown().values());
        List<String> directories = new ArrayList<>(Published.directoriesOf(link.spec().commandLine()));
        directories.addAll(profile.shown().roots());
        List<String> tools = new ArrayList<>();
        services.tools().siblings(exposed).forEach((name, own) -> {
            if (visible(name).isPresent()) {
                tools.add(name);
                tools.add(own);
            }
        });
        return new Published(values, directories, tools);
    }

    /** Records the task a call created as the caller's, on the upstream connection the call went on (see TaskOwners). */
    private void created(UpstreamLink link, RequestContext ctx, String task, String exposed, String tool) {
        McpClient session;
        try {
            session = calls.connection(link, ctx); // the call just went on it: connected, the same one
        } catch (RuntimeException e) {
            return; // not recorded: its creator gets "unknown task", never someone else's
        }
        services.tasks().created(new TaskOwners.Owned(profile.key(), profile.connection(), link, session, task,
                exposed, tool));
    }

    /**
     * How an answered failure counts for the tool's breaker: by default not at all, since an answer
     * shows the tool alive and its words cannot tell the caller's mistake from the tool failing
     * (breakers count health: UpstreamCalls reports the unanswered). Where the upstream opts in
     * ({@code breaker.countToolErrors}), a failure classified as the server's own counts.
     */
    private static Guard.Verdict verdictOf(UpstreamLink link, ErrorPipeline.Outcome outcome) {
        if (!link.spec().limits().breaker().countToolErrors()) {
            return Guard.Verdict.CALLERS_FAULT;
        }
        return switch (outcome.code()) {
            case UPSTREAM_ERROR, INTERNAL_ERROR -> Guard.Verdict.TOOLS_FAULT;
            case VALIDATION_ERROR, NOT_FOUND, PERMISSION_DENIED, CONFLICT, RATE_LIMITED, TIMEOUT, BLOCKED ->
                    Guard.Verdict.CALLERS_FAULT;
        };
    }
}
