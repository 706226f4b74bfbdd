package dev.warden.http.server.internal.stateless;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.identity.Caller;
import dev.warden.core.jsonrpc.Decoded;
import dev.warden.core.jsonrpc.JsonRpcError;
import dev.warden.core.jsonrpc.JsonRpcMessage;
import dev.warden.http.server.internal.request.Refusals;
import dev.warden.http.server.internal.session.HttpCounters;
import dev.warden.http.server.internal.settings.EndpointSettings;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The 2026-07-28 requests in flight: no session; the headers must agree with the body; a
 * connection serves one request, as an exchange of its own, and closes.
 */
public final class StatelessExchanges {

    private final EndpointSettings settings;
    private final HttpCounters counters;
    private final Refusals refusals;
    private final Set<StatelessExchange> open = ConcurrentHashMap.newKeySet();

    public StatelessExchanges(EndpointSettings settings, HttpCounters counters, Refusals refusals) {
        this.settings = settings;
        this.counters = counters;
        this.refusals = refusals;
    }

    /** Called periodically: ended exchanges forgotten, keep-alive comments on the others' streams. */
    public void tick() {
        open.removeIf(StatelessExchange::isClosed);
        open.forEach(StatelessExchange::keepAlive);
    }

    public void serve(Request request, Response response, Callback callback, Decoded decoded, byte[] body,
               Optional<Caller> caller) {
        if (!(decoded instanceof Decoded.Message m)) {
            refusals.error(response, callback, 400, JsonRpcError.INVALID_REQUEST,
                    "Invalid request: this protocol version takes one message per request, not a batch");
            return;
        }
        if (!(m.message() instanceof JsonRpcMessage.Request r)) {
            // No client-to-server notifications are defined in this version over HTTP: accepted, nothing to do.
            response.setStatus(202);
            response.write(true, null, callback);
            return;
        }
        Optional<ProtocolException> refused = Stateless.check(request, r);
        if (refused.isPresent()) {
            refusals.refuse(response, callback, 400, Optional.of(r.id()), refused.get());
            return;
        }
        StatelessExchange exchange = new StatelessExchange(r.id(), request, response, callback,
                settings.limits().streamBuffer(), counters, caller);
        open.add(exchange);
        request.addFailureListener(failure -> exchange.cancel());
        settings.onSession().accept(exchange);
        exchange.deliver(body);
    }
}
