package dev.warden.spring.boot;

import dev.warden.http.server.McpHttpHandler;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * In front of the application's Jetty handler (Spring MVC's servlet context): what the MCP
 * endpoint serves (its path, and its OAuth protected-resource metadata when it authenticates) goes
 * to Warden's handler; everything else goes on to the application as before, Spring Security's own
 * metadata endpoint included when Warden authenticates nobody.
 */
final class McpPathRouter extends Handler.Wrapper {

    private final McpHttpHandler mcp;

    McpPathRouter(Handler application, McpHttpHandler mcp) {
        super(application);
        this.mcp = mcp;
        addBean(mcp.handler()); // started and stopped with the server
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (mcp.serves(Request.getPathInContext(request))) {
            return mcp.handler().handle(request, response, callback);
        }
        return super.handle(request, response, callback);
    }
}
