package dev.warden.console.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.warden.http.server.HostPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * Every request to the console, in this order: the Host and Origin policy (a DNS-rebinding page
 * must not read it: 403), the admin gate (401, 403), GET only (405), then the page, at most
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
    private final Semaphore pages = new Semaphore(MAX_PAGES);

    public ConsoleHandler(HostPolicy hosts, AdminGate gate, Routes routes) {
        this.hosts = Objects.requireNonNull(hosts, "hosts");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.routes = Objects.requireNonNull(routes, "routes");
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
        Optional<Answer> refused = gate.refusal(headers);
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
            return routes.get(exchange.getRequestURI().getPath(), query.get());
        } finally {
            pages.release();
        }
    }

    private static void send(HttpExchange exchange, Answer answer) throws IOException {
        var out = exchange.getResponseHeaders();
        Security.HEADERS.forEach(out::set);
        answer.headers().forEach(out::set);
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
