package dev.warden.spring.boot;

import dev.warden.http.server.McpHttpHandler;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * In front of the application's Jetty handler (Spring MVC's servlet context): the MCP endpoint's
 * path, and its OAuth protected-resource metadata, go to Warden's handler; everything else goes on
 * to the application as before.
 */
final class McpPathRouter extends Handler.Wrapper {

    private static final String METADATA = "/.well-known/oauth-protected-resource";

    private final McpHttpHandler mcp;

    McpPathRouter(Handler application, McpHttpHandler mcp) {
        super(application);
        this.mcp = mcp;
        addBean(mcp.handler()); // started and stopped with the server
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        if (path.equals(mcp.path()) || path.equals(METADATA) || path.equals(METADATA + mcp.path())) {
            return mcp.handler().handle(request, response, callback);
        }
        return super.handle(request, response, callback);
    }
}
