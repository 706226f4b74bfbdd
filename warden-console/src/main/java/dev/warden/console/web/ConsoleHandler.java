package dev.warden.console.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.warden.console.page.Style;
import dev.warden.http.server.HostPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * Every request to the console, in this order: the Host and Origin policy (a DNS-rebinding page
 * must not read it: 403), the stylesheet (no data in it, and sign-in pages use it), the sign-in's own paths (the callback; the sign-out, a POST), the admin
 * gate (401, 403), GET only (405), then the page, at most
 * {@link #MAX_PAGES} at once (503 beyond). Every answer, refusals and failures included, carries the
 * {@link Security} headers.
 */
public final class ConsoleHandler implements HttpHandler {

    private static final System.Logger LOG = System.getLogger(ConsoleHandler.class.getName());

    /** Pages made at once; a request beyond them is refused (503), not queued in memory. */
    static final int MAX_PAGES = 4;

    private final HostPolicy hosts;
    private final AdminGate gate;
    private final Routes routes;
    private final Optional<BrowserSignIn> signIn;
    private final Semaphore pages = new Semaphore(MAX_PAGES);

    public ConsoleHandler(HostPolicy hosts, AdminGate gate, Routes routes) {
        this(hosts, gate, routes, Optional.empty());
    }

    /** @param signIn how a browser signs in, when the gateway's auth names an issuer and the console a client id */
    public ConsoleHandler(HostPolicy hosts, AdminGate gate, Routes routes, Optional<BrowserSignIn> signIn) {
        this.hosts = Objects.requireNonNull(hosts, "hosts");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.routes = Objects.requireNonNull(routes, "routes");
        this.signIn = Objects.requireNonNull(signIn, "signIn");
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            send(exchange, answer(exchange));
        }
    }

    /**
     * The answer, whatever fails on the way: the console's own failure (a store, the authenticator)
     * is said in the log and answered with fixed text, never with a dropped connection or its reason.
     */
    private Answer answer(HttpExchange exchange) {
        try {
            return judged(exchange);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the console could not make a page", e);
            return Answer.plain(500, "the console could not make this page; the gateway's log says why");
        }
    }

    private Answer judged(HttpExchange exchange) {
        var headers = exchange.getRequestHeaders();
        if (!hosts.allows(Optional.ofNullable(headers.getFirst("Host")), Optional.ofNullable(headers.getFirst("Origin")))) {
            return Answer.plain(403, "this host name is not allowed");
        }
        String path = exchange.getRequestURI().getPath();
        if (Style.PATH.equals(path) && "GET".equals(exchange.getRequestMethod())) {
            return Answer.css(Style.CSS); // the same for everyone, and the sign-in pages need it before a session
        }
        Optional<Answer> refused = signIn.isPresent() ? signedIn(signIn.get(), exchange, path)
                : gate.refusal(headers).map(r -> r.status() == 401 && BrowserSignIn.browserWithoutCredentials(headers)
                        ? SignInPages.needsIssuer(r) : r);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (!"GET".equals(exchange.getRequestMethod())) {
            return Answer.plain(405, "the console is read only: GET only", Map.of("Allow", "GET"));
        }
        Optional<Map<String, String>> query = Query.parse(exchange.getRequestURI().getRawQuery());
        if (query.isEmpty()) {
            return Answer.plain(400, "the query is too long or malformed");
        }
        // A page may hold a store's read (up to Routes.READ incidents): so many at once, no more.
        if (!pages.tryAcquire()) {
            return Answer.plain(503, "the console is making other pages; try again", Map.of("Retry-After", "1"));
        }
        try {
            return routes.get(path, query.get());
        } finally {
            pages.release();
        }
    }

    /**
     * With browser sign-in: the callback and sign-out answer for themselves; a session stands in for
     * the bearer header; a browser with neither is sent to sign in; whatever credential the request
     * then holds is judged by the gate, and a session whose token it refuses ends.
     */
    private Optional<Answer> signedIn(BrowserSignIn browser, HttpExchange exchange, String path) {
        var headers = exchange.getRequestHeaders();
        String method = exchange.getRequestMethod();
        boolean get = "GET".equals(method);
        if (BrowserSignIn.owns(path)) {
            return Optional.of(Query.parse(exchange.getRequestURI().getRawQuery())
                    .map(q -> browser.own(method, path, q, headers))
                    .orElseGet(() -> Answer.plain(400, "the query is too long or malformed")));
        }
        Optional<com.sun.net.httpserver.Headers> session = browser.withSession(headers);
        String page = exchange.getRequestURI().getRawPath()
                + Optional.ofNullable(exchange.getRequestURI().getRawQuery()).map(q -> "?" + q).orElse("");
        if (get && session.isEmpty() && BrowserSignIn.browserWithoutCredentials(headers)) {
            return Optional.of(browser.begin(page));
        }
        Optional<Answer> refused = gate.refusal(session.orElse(headers));
        if (refused.isPresent() && session.isPresent()) {
            browser.forget(headers);
            if (get && refused.get().status() == 401) {
                return Optional.of(browser.begin(page));
            }
        }
        return refused;
    }

    private static void send(HttpExchange exchange, Answer answer) throws IOException {
        var out = exchange.getResponseHeaders();
        Security.HEADERS.forEach(out::set);
        // Set-Cookie may hold several cookies (Answer.COOKIE_SEPARATOR): each is a header of its own.
        answer.headers().forEach((name, value) -> out.put(name, "Set-Cookie".equals(name)
                ? List.of(value.split(Answer.COOKIE_SEPARATOR, -1)) : List.of(value)));
        // A HEAD (refused as any other method but GET) is answered without the body it may not have.
        boolean empty = answer.body().length == 0 || "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(answer.status(), empty ? -1 : answer.body().length);
        if (!empty) {
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(answer.body());
            }
        }
    }
}
