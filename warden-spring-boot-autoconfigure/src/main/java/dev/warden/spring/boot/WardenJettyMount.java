package dev.warden.spring.boot;

import dev.warden.http.server.McpHttpHandler;
import dev.warden.http.server.McpHttpServer;
import java.net.URI;
import java.util.Optional;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

/**
 * The MCP endpoint on the application's own Jetty ({@code warden.mcp.http.server=application}): a
 * router in front of Boot's handler sends the endpoint's path to Warden's handler, whose request
 * deadline watches Boot's connectors; its timers start once Boot's web server is bound.
 */
final class WardenJettyMount implements WardenHttpEndpoint, ApplicationListener<WebServerInitializedEvent>,
        DisposableBean {

    private static final Log LOG = LogFactory.getLog(WardenJettyMount.class);

    private final McpHttpHandler mcp;
    private final String host;
    private final String serverName;
    private volatile Optional<URI> url = Optional.empty();

    WardenJettyMount(McpHttpHandler mcp, String host, String serverName) {
        this.mcp = mcp;
        this.host = host;
        this.serverName = serverName;
    }

    /** The Jetty customization: the router in front of Boot's handler, Boot's connectors timed. */
    void mount(Server server) {
        mcp.handler().setServer(server);
        server.setHandler(new McpPathRouter(server.getHandler(), mcp));
        for (Connector connector : server.getConnectors()) {
            mcp.attach(connector);
        }
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (url.isPresent() || event.getApplicationContext().getParent() != null) {
            return; // the management context's own server, if any, has no MCP endpoint
        }
        String h = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
        URI endpoint = URI.create("http://" + (h.contains(":") ? "[" + h + "]" : h) + ":"
                + event.getWebServer().getPort() + mcp.path());
        mcp.start(endpoint);
        url = Optional.of(endpoint);
        LOG.info("Warden MCP: serving " + serverName + " at " + endpoint + " (the application's Jetty)");
    }

    @Override
    public void destroy() {
        url = Optional.empty();
        mcp.close();
    }

    @Override
    public Optional<URI> url() {
        return url;
    }

    @Override
    public int sessionCount() {
        return mcp.sessionCount();
    }

    @Override
    public Optional<McpHttpServer.Stats> stats() {
        return Optional.of(mcp.stats());
    }

    @Override
    public boolean isRunning() {
        return url.isPresent();
    }
}
