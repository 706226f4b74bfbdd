package dev.warden.console.web;

import com.sun.net.httpserver.Headers;
import dev.warden.console.page.Frame;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a browser is told when it cannot sign in here (the gateway's auth has API keys alone, or the
 * console no client id, and a browser sends no key by itself: fixed words, the refusal's status and
 * challenge kept), and the sign-out form with the check its POST must pass.
 */
final class SignInPages {

    private SignInPages() {
    }

    static Answer needsIssuer(Answer refusal) {
        String page = Frame.bare("sign in").tag("<main><h1>Sign in</h1>").toString()
                + "<p id=\"needs-issuer\">The console needs a credential with its admin scope, and a browser sends none "
                + "by itself. A browser signs in here when the gateway's <code>auth:</code> names an OAuth issuer and "
                + "the console has a client id at it (<code>--console-client-id</code>). With API keys alone, read the "
                + "console with a client that sends <code>X-API-Key</code>.</p></main></body></html>\n";
        Map<String, String> headers = new HashMap<>(refusal.headers());
        headers.put("Content-Type", "text/html; charset=utf-8");
        return new Answer(refusal.status(), headers, page.getBytes(StandardCharsets.UTF_8));
    }

    /** The page a signed-out browser is shown. */
    static String signedOut() {
        return Frame.bare("signed out").tag("<main><p>Signed out. <a href=\"/\">Sign in again</a>.</p></main>")
                .tag("</body></html>\n").toString();
    }

    /**
     * GET /logout on a console without browser sign-in (its clients send their own credential with
     * every request): the frame's sign-out link still leads somewhere that says so.
     */
    static Answer nothingToSignOutOf() {
        return Answer.html(200, Frame.bare("sign out").tag("<main><h1>Sign out</h1><p id=\"no-sign-in\">This console ")
                .tag("signs in no browser: each request carries its own credential (an API key or a bearer token), ")
                .tag("so there is no session here to end.</p></main></body></html>\n").toString());
    }

    /** GET /logout: the form that signs out (a POST, so no link or image on another site can). */
    static Answer signOutForm() {
        // Under the console's no-referrer policy a browser sends "Origin: null" with a form's POST; on this
        // page same-origin lets it send the console's own Origin (and still no referrer to another site).
        Answer form = Answer.html(200, Frame.bare("sign out").tag("<main><h1>Sign out</h1>")
                .tag("<form id=\"sign-out\" method=\"post\" action=\"").tag(Frame.SIGN_OUT).tag("\">")
                .tag("<button type=\"submit\">Sign out</button></form></main></body></html>\n").toString());
        Map<String, String> headers = new HashMap<>(form.headers());
        headers.put("Referrer-Policy", "same-origin");
        return new Answer(200, headers, form.body());
    }

    /**
     * A sign-out's POST came from the console's own page: its Origin (browsers send one with every
     * POST) is the console's URL, or the very host the request was sent to (the Host policy has
     * already allowed that name). No Origin, or {@code null}, is refused.
     */
    static boolean sameOrigin(Headers headers, URI base) {
        Optional<URI> origin;
        try {
            origin = Optional.ofNullable(headers.getFirst("Origin")).filter(o -> !o.equals("null")).map(URI::create)
                    .filter(o -> o.getScheme() != null && o.getRawAuthority() != null);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (origin.isEmpty()) {
            return false;
        }
        String authority = origin.get().getRawAuthority();
        boolean console = origin.get().getScheme().equalsIgnoreCase(base.getScheme())
                && authority.equalsIgnoreCase(base.getRawAuthority());
        return console || authority.equalsIgnoreCase(Optional.ofNullable(headers.getFirst("Host")).orElse(""));
    }
}
