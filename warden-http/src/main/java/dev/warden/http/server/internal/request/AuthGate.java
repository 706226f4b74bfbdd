package dev.warden.http.server.internal.request;

import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.ProtocolException;
import dev.warden.core.identity.Authenticator;
import dev.warden.core.identity.Caller;
import dev.warden.core.identity.Credentials;
import dev.warden.core.identity.ProtectedResourceMetadata;
import dev.warden.core.identity.ScopeToken;
import dev.warden.core.identity.Verdict;
import dev.warden.core.json.Json;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.RequestId;
import dev.warden.core.oauth.WellKnown;
import java.net.URI;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.node.ObjectNode;

/**
 * Who a request comes from, before anything else of it is read: the server's {@link Authenticator}
 * judges the request's credentials; a refusal is answered here with its status, a
 * {@code WWW-Authenticate} challenge (RFC 6750, RFC 9728) and a JSON-RPC error body, all fixed text
 * (the authenticator's reason goes only into the incident behind the ref). Also serves the
 * resource's RFC 9728 metadata. Without an authenticator every request passes, as nobody.
 */
public final class AuthGate {

    private final Optional<Authenticator> authenticator;
    /** The canonical URI of this resource: configured, or the endpoint's URL once the port is bound. */
    private volatile Optional<URI> resource;

    public AuthGate(Optional<Authenticator> authenticator) {
        this.authenticator = authenticator;
        this.resource = authenticator.flatMap(Authenticator::resource);
    }

    /** The server is bound: its endpoint is the resource unless one was configured. */
    public void bound(URI endpoint) {
        if (resource.isEmpty()) {
            resource = Optional.of(endpoint);
        }
    }

    public boolean enabled() {
        return authenticator.isPresent();
    }

    /** The resource's canonical URI, once bound. */
    public Optional<URI> resource() {
        return authenticator.isPresent() ? resource : Optional.empty();
    }

    /** Who the request comes from (empty when nobody is authenticated here); empty result = refused, answered. */
    public Optional<Admission> admit(Request request, Response response, Callback callback, Refusals refusals) {
        if (authenticator.isEmpty()) {
            return Optional.of(Admission.NOBODY);
        }
        if (request.getHeaders().getValuesList(HttpHeader.AUTHORIZATION).size() > 1
                || request.getHeaders().getValuesList("X-API-Key").size() > 1) {
            // RFC 6750 section 3.1: one credential per request. Taking the first would let a proxy
            // that reads the last disagree with us on who calls.
            refuseReadingId(request, response, callback, refusals, new Verdict.Refused(Verdict.Refusal.INVALID_REQUEST,
                    Set.of(), "more than one Authorization or X-API-Key header"));
            return Optional.empty();
        }
        Credentials credentials = new Credentials(Headers.header(request, HttpHeader.AUTHORIZATION.asString()),
                Headers.header(request, "X-API-Key"));
        Verdict verdict = authenticator.get().authenticate(credentials, resource.orElseThrow());
        return switch (verdict) {
            case Verdict.Admitted admitted -> Optional.of(new Admission(Optional.of(admitted.caller())));
            case Verdict.Refused refused -> {
                refuseReadingId(request, response, callback, refusals, refused);
                yield Optional.empty();
            }
        };
    }

    /**
     * A refusal of a POST carries its request's id, as every answer does: a body that declares a
     * length of at most {@link RefusedBody#MAX_BYTES} is read only to find it. Any other body is
     * not read for it (a small one is dropped before the answer, {@link UnreadBody}), and its
     * refusal has the null id, as a body that is not JSON does.
     */
    private void refuseReadingId(Request request, Response response, Callback callback, Refusals refusals,
                                 Verdict.Refused refused) {
        long declared = request.getLength();
        if (!"POST".equals(request.getMethod()) || declared < 0 || declared > RefusedBody.MAX_BYTES) {
            refuse(response, callback, refusals, refused, Optional.empty());
            return;
        }
        BodyReader.read(request, RefusedBody.MAX_BYTES, outcome -> {
            switch (outcome) {
                case BodyReader.Outcome.Read read -> refuse(response, callback, refusals, refused,
                        RefusedBody.requestId(read.body()));
                case BodyReader.Outcome.TooLarge tooLarge -> refuse(response, callback, refusals, refused,
                        Optional.empty());
                case BodyReader.Outcome.Failed failed -> callback.failed(failed.cause());
            }
        });
    }

    /**
     * Whether {@code caller} may call the tools named: each tool's own scopes (step-up, answered
     * with 403 {@code insufficient_scope} naming every scope to ask for). True without an authenticator.
     */
    public boolean mayCall(Optional<Caller> caller, Iterable<String> tools, Optional<RequestId> id, Response response,
                    Callback callback, Refusals refusals) {
        if (authenticator.isEmpty() || caller.isEmpty()) {
            return true;
        }
        Set<String> needed = new TreeSet<>();
        tools.forEach(tool -> needed.addAll(authenticator.get().scopesForTool(tool)));
        if (caller.get().hasScopes(needed)) {
            return true;
        }
        Set<String> askFor = new TreeSet<>(authenticator.get().requiredScopes());
        askFor.addAll(caller.get().scopes());
        askFor.addAll(needed);
        Set<String> missing = new TreeSet<>(needed);
        missing.removeAll(caller.get().scopes());
        refuse(response, callback, refusals, new Verdict.Refused(Verdict.Refusal.INSUFFICIENT_SCOPE, askFor,
                "tools/call needs scopes " + missing + " that " + caller.get().subject() + " lacks"), id);
        return false;
    }

    private void refuse(Response response, Callback callback, Refusals refusals, Verdict.Refused refused,
                        Optional<RequestId> id) {
        Verdict.Refusal kind = refused.refusal();
        StringBuilder challenge = new StringBuilder("Bearer");
        String separator = " ";
        if (!kind.error().isEmpty()) {
            challenge.append(separator).append("error=\"").append(kind.error()).append('"');
            separator = ", ";
        }
        challenge.append(separator).append("resource_metadata=\"").append(WellKnown.publishedProtectedResource(resource.orElseThrow())).append('"');
        Set<String> scopes = refused.scopes().isEmpty() ? Set.copyOf(authenticator.orElseThrow().requiredScopes())
                : refused.scopes();
        // The caller's own scopes come from its token: only those RFC 6749 allows (no space, quote or
        // backslash, printable ASCII) go into the header, so a token cannot write into the challenge.
        Set<String> safe = new TreeSet<>();
        scopes.stream().filter(AuthGate::scopeToken).forEach(safe::add);
        if (!safe.isEmpty()) {
            challenge.append(", scope=\"").append(String.join(" ", safe)).append('"');
        }
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, challenge.toString());
        String message = switch (kind) {
            case MISSING -> "Unauthorized: this server needs an access token; see the WWW-Authenticate header";
            case INVALID_TOKEN -> "Unauthorized: the access token is not valid for this server";
            case INVALID_REQUEST -> "Bad request: the credentials are malformed";
            case INSUFFICIENT_SCOPE -> "Forbidden: the access token lacks a scope this request needs";
        };
        ErrorCode code = kind == Verdict.Refusal.INVALID_REQUEST ? ErrorCode.VALIDATION_ERROR
                : ErrorCode.PERMISSION_DENIED;
        refusals.refuse(response, callback, kind.status(), id,
                new ProtocolException(JsonRpcError.INVALID_REQUEST, message, code), "authentication: " + refused.reason());
    }

    /** RFC 6749 section 3.3's scope-token, and no longer than a header needs. */
    static boolean scopeToken(String scope) {
        return scope.length() <= 256 && ScopeToken.valid(scope);
    }

    /**
     * Whether {@code path} asks for this resource's metadata: only when it authenticates, in the
     * path form for this resource or the endpoint, or the root form.
     */
    public boolean isMetadataPath(String path, String endpointPath) {
        if (authenticator.isEmpty() || !path.startsWith(WellKnown.PROTECTED_RESOURCE)) {
            return false;
        }
        String suffix = path.substring(WellKnown.PROTECTED_RESOURCE.length());
        return suffix.isEmpty() || suffix.equals(endpointPath)
                || resource.map(URI::getRawPath).filter(suffix::equals).isPresent();
    }

    /**
     * Serves the metadata if the request is for it (the path form for this resource or the
     * endpoint, or the root form); false if it is not.
     */
    public boolean servesMetadata(Request request, Response response, Callback callback, String endpointPath) {
        if (!isMetadataPath(Request.getPathInContext(request), endpointPath)) {
            return false;
        }
        URI r = resource.orElseThrow();
        // Public by nature, and read by browser-based clients from other origins.
        response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
        if (!"GET".equals(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET");
            Response.writeError(request, response, callback, 405);
            return true;
        }
        ProtectedResourceMetadata metadata = authenticator.get().metadata(r);
        ObjectNode body = Json.object();
        body.put("resource", metadata.resource().toString());
        var servers = body.putArray("authorization_servers");
        metadata.authorizationServers().forEach(s -> servers.add(s.toString()));
        var scopes = body.putArray("scopes_supported");
        metadata.scopesSupported().forEach(scopes::add);
        body.putArray("bearer_methods_supported").add("header");
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "max-age=300");
        Content.Sink.write(response, true, Json.write(body), callback);
        return true;
    }

    /** Who a request was admitted as: nobody when the server authenticates no one. */
    public record Admission(Optional<Caller> caller) {
        static final Admission NOBODY = new Admission(Optional.empty());
    }
}
