package dev.warden.http.server.internal.route;

import dev.warden.core.json.Json;
import dev.warden.http.server.internal.request.Gate;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /livez} and {@code GET /readyz}, answered before the Host, Origin and credential
 * checks: a load balancer's health check carries no token and names the backend by address. They
 * tell nothing beyond up and ready: /livez is 200 while the process serves; /readyz is 200, or 503
 * with the names of the failing checks ({@code {"ready":false,"failing":["draining"]}}), names the
 * gateway chose, never an address, a credential or an error text.
 */
public final class Probes {

    public static final String LIVE = "/livez";
    public static final String READY = "/readyz";

    private final Gate gate;

    public Probes(Gate gate) {
        this.gate = gate;
    }

    /** Answers a probe and returns true, or returns false for every other request. */
    public boolean serves(Request request, Response response, Callback callback) {
        String path = Request.getPathInContext(request);
        if (!LIVE.equals(path) && !READY.equals(path)) {
            return false;
        }
        if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            Response.writeError(request, response, callback, 405);
            return true;
        }
        List<String> failing = LIVE.equals(path) ? List.of() : gate.unready().get();
        ObjectNode body = Json.object();
        if (LIVE.equals(path)) {
            body.put("live", true);
        } else {
            body.put("ready", failing.isEmpty());
            failing.forEach(body.putArray("failing")::add);
        }
        String text = body.toString();
        response.setStatus(failing.isEmpty() ? 200 : 503);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        if (!failing.isEmpty()) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
        }
        response.write(true, "HEAD".equals(request.getMethod()) ? null
                : ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }
}
