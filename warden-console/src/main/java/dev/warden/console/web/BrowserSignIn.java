package dev.warden.console.web;

import com.sun.net.httpserver.Headers;
import dev.warden.client.auth.CodeGrant;
import dev.warden.console.page.Frame;
import dev.warden.console.page.Markup;
import dev.warden.console.signin.PendingCookie;
import dev.warden.console.signin.PendingSignIns;
import dev.warden.console.signin.SessionCookie;
import dev.warden.console.signin.Sessions;
import dev.warden.core.error.TransportException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A browser signs in to the console through the gateway's authorization server: the console is an
 * OAuth client of it (authorization code, PKCE S256, {@code state}, the gateway's resource, the
 * gateway's scopes and the console's). The token it gets is judged by the gateway's own
 * authenticator, as the MCP endpoint judges it, and kept here; the browser holds only a random
 * session id ({@link SessionCookie}). A sign-in under way travels sealed in the cookie of the
 * browser that started it ({@link PendingCookie}, {@link PendingSignIns}): nothing is kept here for
 * it, so page loads cannot crowd one out; the redirect URI is fixed when the console starts, never
 * made from a request's Host. Every answer is the console's fixed text: nothing the authorization
 * server said is shown.
 */
public final class BrowserSignIn {

    public static final String CALLBACK = "/login/callback";
    public static final String LOGOUT = Frame.SIGN_OUT;

    private static final System.Logger LOG = System.getLogger(BrowserSignIn.class.getName());
    /** The longest page path kept to return to after signing in. */
    private static final int MAX_RETURN = 512;
    /** After the authorization server could not be reached, page loads wait this long before trying it again. */
    static final Duration BACK_OFF = Duration.ofSeconds(30);

    private final CodeGrant grant;
    private final AdminGate gate;
    private final Supplier<URI> resource;
    private final Set<String> scopes;
    private final URI base;
    private final URI redirect;
    private final Clock clock;
    private final Sessions sessions;
    private final PendingSignIns pending;
    private volatile Instant quietUntil = Instant.MIN;

    /**
     * @param scopes what to ask for: the gateway's required scopes and the console's
     * @param base where browsers reach the console, with the path {@code /}: {@code --console-url}
     *     (its https address behind a proxy), else the address it is bound to; the redirect URI is
     *     its {@code /login/callback}
     */
    public BrowserSignIn(CodeGrant grant, AdminGate gate, Supplier<URI> resource, Set<String> scopes, URI base,
            Clock clock) {
        this.grant = Objects.requireNonNull(grant, "grant");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.resource = Objects.requireNonNull(resource, "resource");
        this.scopes = Set.copyOf(scopes);
        this.base = Objects.requireNonNull(base, "base");
        this.redirect = base.resolve(CALLBACK);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sessions = new Sessions(clock);
        this.pending = new PendingSignIns(clock);
    }

    /** A page request from a browser (it asks for HTML) that carries no credential of its own. */
    static boolean browserWithoutCredentials(Headers headers) {
        String accept = Objects.requireNonNullElse(headers.getFirst("Accept"), "");
        return accept.contains("text/html") && !headers.containsKey("Authorization") && !headers.containsKey("X-API-Key");
    }

    /** The paths answered here, before the gate: the callback and the sign-out. */
    static boolean owns(String path) {
        return CALLBACK.equals(path) || LOGOUT.equals(path);
    }

    /** The callback's (GET) or the sign-out's (GET: the form; POST: signs out) answer; another method is 405. */
    Answer own(String method, String path, Map<String, String> query, Headers headers) {
        if (CALLBACK.equals(path)) {
            return "GET".equals(method) ? callback(query, headers)
                    : Answer.plain(405, "the sign-in comes back with GET", Map.of("Allow", "GET"));
        }
        return switch (method) {
            case "POST" -> SignInPages.sameOrigin(headers, base) ? logout(headers)
                    : Answer.plain(403, "a sign-out must come from the console's own page");
            case "GET" -> SignInPages.signOutForm();
            default -> Answer.plain(405, "sign out with the form on /logout", Map.of("Allow", "GET, POST"));
        };
    }

    /** The request's headers with its session's token, when it has a live session and no credential of its own. */
    Optional<Headers> withSession(Headers headers) {
        if (headers.containsKey("Authorization") || headers.containsKey("X-API-Key")) {
            return Optional.empty();
        }
        return SessionCookie.read(Objects.requireNonNullElse(headers.get("Cookie"), List.of()))
                .flatMap(sessions::find).map(s -> bearer(headers, s.accessToken()));
    }

    /** Ends the session a refused token came with (revoked, or no longer holding the scope). */
    void forget(Headers headers) {
        SessionCookie.read(Objects.requireNonNullElse(headers.get("Cookie"), List.of())).ifPresent(sessions::end);
    }

    /** Sends the browser to the authorization server, to come back to {@code returnTo}. */
    Answer begin(String returnTo) {
        Instant now = clock.instant();
        if (now.isBefore(quietUntil)) {
            return unreachable();
        }
        CodeGrant.Pending request;
        try {
            request = grant.begin(redirect, scopes, resource.get());
        } catch (TransportException | IllegalArgumentException e) {
            // One line, no stack trace, and no retry for a while: page loads must not flood the log or the server.
            quietUntil = now.plus(BACK_OFF);
            LOG.log(System.Logger.Level.WARNING, "the console could not start a sign-in at " + grant.issuer() + ": "
                    + e.getMessage() + "; page loads wait " + BACK_OFF.toSeconds() + "s before trying again");
            return unreachable();
        }
        String sealed = pending.seal(request.state(), request.verifier(), redirect, safeReturn(returnTo));
        return new Answer(303, Map.of("Location", request.location().toString(), "Set-Cookie",
                PendingCookie.set(sealed, secure())), new byte[0]);
    }

    private static Answer unreachable() {
        return Answer.plain(502, "the console could not reach the gateway's authorization server; the gateway's "
                + "log says why");
    }

    /**
     * The callback's answer. A signed-in browser forgets its pending cookie with the session cookie
     * (and its state is not taken again); after a refusal the cookie expires with its short Max-Age.
     */
    private Answer callback(Map<String, String> query, Headers headers) {
        Optional<String> sealed = PendingCookie.read(Objects.requireNonNullElse(headers.get("Cookie"), List.of()));
        Optional<String> state = Optional.ofNullable(query.get("state"));
        Optional<PendingSignIns.Pending> started = sealed.isEmpty() || state.isEmpty() ? Optional.empty()
                : pending.open(sealed.get(), state.get());
        if (started.isEmpty()) {
            return Answer.plain(400, "this sign-in is unknown, used, expired or was started in another browser: "
                    + "open the console again");
        }
        boolean sameIssuer;
        try {
            sameIssuer = grant.issuerAnswered(Optional.ofNullable(query.get("iss")));
        } catch (TransportException e) {
            LOG.log(System.Logger.Level.WARNING, "the console's sign-in could not check the issuer: " + e.getMessage());
            return unreachable();
        }
        if (!sameIssuer) {
            return Answer.plain(400, "the sign-in came back from another authorization server, or without its name");
        }
        String code = query.getOrDefault("code", "");
        if (query.containsKey("error") || code.isEmpty()) {
            return Answer.plain(403, "the authorization server did not sign you in");
        }
        CodeGrant.Issued issued;
        try {
            issued = grant.finish(code, started.get().verifier(), started.get().redirectUri(), resource.get(),
                    clock.instant());
        } catch (TransportException e) {
            LOG.log(System.Logger.Level.WARNING, "the console's sign-in could not exchange its code", e);
            return Answer.plain(502, "the authorization server did not issue a token; the gateway's log says why");
        }
        Optional<Answer> refused = gate.refusal(bearer(new Headers(), issued.accessToken()));
        if (refused.isPresent()) {
            return refused.get().status() == 403
                    ? Answer.plain(403, "you are signed in, but your token does not hold the console's scope")
                    : Answer.plain(401, "the gateway does not accept the token the authorization server issued");
        }
        pending.finished(started.get());
        Sessions.Session session = sessions.open(issued.accessToken(), issued.expiresAt());
        String to = started.get().returnTo();
        // A page of the console's own moves on: its navigation is same-site, so the Strict cookie goes with it
        // (a redirect straight from the authorization server's answer would be a cross-site chain without it).
        String page = Frame.bare("signed in",
                new Markup().tag("<meta http-equiv=\"refresh\" content=\"0;url=").text(to).tag("\">"))
                .tag("<main><p>Signed in. <a href=\"").text(to).tag("\">Open the console</a>.</p>")
                .tag("</main></body></html>\n").toString();
        return new Answer(200, Map.of("Content-Type", "text/html; charset=utf-8", "Set-Cookie",
                SessionCookie.set(session.id(), sessions.remaining(session), secure()) + Answer.COOKIE_SEPARATOR
                        + PendingCookie.clear(secure())),
                page.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private Answer logout(Headers headers) {
        forget(headers);
        String page = SignInPages.signedOut();
        return new Answer(200, Map.of("Content-Type", "text/html; charset=utf-8", "Set-Cookie",
                SessionCookie.clear(secure())), page.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private boolean secure() {
        return "https".equalsIgnoreCase(base.getScheme());
    }

    /** A path of the console's own: one slash, then no second slash or backslash that would make it another host. */
    static String safeReturn(String path) {
        boolean own = path.startsWith("/") && path.length() <= MAX_RETURN && !path.startsWith("//")
                && path.chars().noneMatch(c -> c == '\\' || c < 0x21 || c > 0x7e);
        return own && !path.startsWith(CALLBACK) && !path.startsWith(LOGOUT) ? path : "/";
    }

    private static Headers bearer(Headers headers, String token) {
        Headers with = new Headers(headers);
        with.set("Authorization", "Bearer " + token);
        return with;
    }

    /** Open sessions now (tests). */
    int sessions() {
        return sessions.size();
    }
}
