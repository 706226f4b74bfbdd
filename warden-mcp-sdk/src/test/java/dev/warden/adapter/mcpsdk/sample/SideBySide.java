package dev.warden.adapter.mcpsdk.sample;

import dev.warden.adapter.mcpsdk.WardenGuard;
import dev.warden.core.incident.FileIncidentStore;
import dev.warden.testkit.LocalPostgres;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The orders server twice on one Jetty, over the SDK's Streamable HTTP servlet: as it is at
 * {@code /plain/mcp}, guarded at {@code /guarded/mcp}, its incidents in a file store of its own.
 * Its database is the JVM's {@link LocalPostgres}; its reports directory is under {@code dir}.
 * The Java client test (OrdersSideBySideTest) and warden-e2e's TypeScript client test share it.
 */
public final class SideBySide implements AutoCloseable {

    public static final String PLAIN = "/plain/mcp";
    public static final String GUARDED = "/guarded/mcp";

    private final Server jetty;
    private final URI base;
    private final FileIncidentStore store;
    private final Path reports;
    private final List<Served.Endpoint> endpoints;

    private SideBySide(Server jetty, URI base, FileIncidentStore store, Path reports, List<Served.Endpoint> endpoints) {
        this.jetty = jetty;
        this.base = base;
        this.store = store;
        this.reports = reports;
        this.endpoints = endpoints;
    }

    public static SideBySide start(Path dir) throws Exception {
        Path reports = Files.createDirectories(dir.resolve("srv/orders/reports"));
        LocalPostgres postgres = LocalPostgres.shared();
        OrdersServer orders = new OrdersServer(postgres.jdbcUrl(), LocalPostgres.USER, LocalPostgres.PASSWORD, reports);
        orders.migrate();
        FileIncidentStore store = FileIncidentStore.open(dir.resolve("incidents"));
        WardenGuard guard = WardenGuard.builder().incidents(store).build();
        List<Served.Endpoint> endpoints = List.of(Served.plain(orders, PLAIN), Served.guarded(orders, GUARDED, guard));
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        for (int i = 0; i < endpoints.size(); i++) {
            ServletHolder holder = new ServletHolder(endpoints.get(i).servlet());
            holder.setAsyncSupported(true); // the SDK's servlet answers on an async context
            context.addServlet(holder, i == 0 ? "/plain/*" : "/guarded/*");
        }
        jetty.setHandler(context);
        jetty.start();
        return new SideBySide(jetty, URI.create("http://127.0.0.1:" + connector.getLocalPort()), store, reports,
                endpoints);
    }

    public URI base() {
        return base;
    }

    public FileIncidentStore incidents() {
        return store;
    }

    /** The server's own directory, which no client ever names. */
    public Path reports() {
        return reports;
    }

    @Override
    public void close() throws Exception {
        for (Served.Endpoint endpoint : endpoints) {
            endpoint.server().close();
        }
        jetty.stop();
        store.close();
    }
}
