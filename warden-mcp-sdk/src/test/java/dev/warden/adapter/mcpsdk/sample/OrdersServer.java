package dev.warden.adapter.mcpsdk.sample;

import dev.warden.core.error.ValidationFailure;
import dev.warden.core.error.Violation;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * An order service written with the official MCP Java SDK alone, as a team writes one today, and
 * failing the ways such servers fail: a NullPointerException deep in its code, PostgreSQL errors
 * that name its tables, columns and constraints, an upstream URL with its token, a file path on the
 * server, and one failure it means the model to read (a {@link ValidationFailure}). No Warden in it
 * but that one exception type: the guard is added around it (OrdersSideBySideTest).
 */
// The records' constructors that 2.0 and 2.1 both have (2.1 deprecates them for builders 2.0 lacks).
@SuppressWarnings("deprecation")
public final class OrdersServer {

    /** The billing service's key, as a real client library puts it in the URL it reports. */
    public static final String UPSTREAM_TOKEN = "sk_live_51HqLyjWDarjtT1zdp7dcXhGkTq";
    public static final String UPSTREAM_HOST = "billing.internal.example";

    private final String jdbcUrl;
    private final String user;
    private final String password;
    private final Path reports;

    public OrdersServer(String jdbcUrl, String user, String password, Path reports) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        this.reports = reports;
    }

    /** Creates the orders table and its first order. */
    public void migrate() throws SQLException {
        try (Connection c = connect()) {
            c.createStatement().execute("CREATE TABLE IF NOT EXISTS sdk_orders "
                    + "(id integer PRIMARY KEY, total_cents integer NOT NULL)");
            c.createStatement().execute("INSERT INTO sdk_orders VALUES (1, 4200) ON CONFLICT DO NOTHING");
        }
    }

    public List<SyncToolSpecification> tools() {
        return List.of(
                tool("order_status", "Where an order is.", args -> text(new Shipments().carrierOf(id(args)))),
                tool("create_order", "Places an order.", args -> text(insert(id(args), cents(args)))),
                tool("order_total", "An order's total.", args -> text(total(id(args)))),
                tool("invoice", "An order's invoice, from the billing service.", args -> text(invoice(id(args)))),
                tool("cancel_order", "Cancels an order.", args -> {
                    // The one failure written for the model: what to change, where.
                    throw new ValidationFailure(List.of(new Violation("/reason",
                            "must be one of: customer_request, duplicate, fraud")));
                }));
    }

    public List<SyncResourceTemplateSpecification> resourceTemplates() {
        McpSchema.ResourceTemplate template = new McpSchema.ResourceTemplate("orders://reports/{name}", "report",
                null, "A monthly report.", "text/csv", null);
        return List.of(new SyncResourceTemplateSpecification(template, (exchange, request) -> {
            String name = request.uri().substring("orders://reports/".length());
            try {
                String csv = Files.readString(reports.resolve(name));
                return new McpSchema.ReadResourceResult(List.of(
                        new McpSchema.TextResourceContents(request.uri(), "text/csv", csv)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }));
    }

    public List<SyncPromptSpecification> prompts() {
        McpSchema.Prompt prompt = new McpSchema.Prompt("summarize_order", "Summarizes an order.",
                List.of(new McpSchema.PromptArgument("id", "The order's id.", true)));
        return List.of(new SyncPromptSpecification(prompt, (exchange, request) -> {
            String summary = new Shipments().carrierOf(Integer.parseInt(String.valueOf(request.arguments().get("id"))));
            return new McpSchema.GetPromptResult("An order", List.of(new McpSchema.PromptMessage(
                    McpSchema.Role.USER, new McpSchema.TextContent(null, summary, null))));
        }));
    }

    private String insert(int id, int cents) {
        try (Connection c = connect();
             PreparedStatement insert = c.prepareStatement("INSERT INTO sdk_orders (id, total_cents) VALUES (?, ?)")) {
            insert.setInt(1, id);
            insert.setInt(2, cents);
            insert.executeUpdate();
            return "created";
        } catch (SQLException e) {
            throw new RuntimeException(e);
        }
    }

    private String total(int id) {
        // A typo a test never hit: the column is total_cents.
        try (Connection c = connect();
             PreparedStatement select = c.prepareStatement("SELECT totl_cents FROM sdk_orders WHERE id = ?")) {
            select.setInt(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? String.valueOf(rows.getInt(1)) : "none";
            }
        } catch (SQLException e) {
            throw new RuntimeException(e);
        }
    }

    private static String invoice(int id) {
        // What an HTTP client library reports when the billing service is down.
        String url = "https://" + UPSTREAM_HOST + ":8443/v1/invoices/" + id + "?api_key=" + UPSTREAM_TOKEN;
        throw new UncheckedIOException(new IOException("I/O error on GET request for \"" + url + "\": Connection refused",
                new ConnectException("Connection refused")));
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, user, password);
    }

    /** Where shipments are looked up; order 7 has none yet, which nobody expected. */
    static final class Shipments {
        record Shipment(String carrier) {
        }

        private final Map<Integer, Shipment> byOrder = Map.of(1, new Shipment("DHL"));

        String carrierOf(int order) {
            return shipment(order).carrier();
        }

        Shipment shipment(int order) {
            return byOrder.get(order);
        }
    }

    private interface Handler {
        CallToolResult call(Map<String, Object> arguments);
    }

    private static SyncToolSpecification tool(String name, String description, Handler handler) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description)
                .inputSchema(Map.of("type", "object")).build();
        return new SyncToolSpecification(tool, (exchange, request) -> handler.call(request.arguments()));
    }

    private static CallToolResult text(String text) {
        return new CallToolResult(List.of(new McpSchema.TextContent(null, text, null)), false, null, null);
    }

    private static int id(Map<String, Object> arguments) {
        return ((Number) arguments.get("id")).intValue();
    }

    private static int cents(Map<String, Object> arguments) {
        return ((Number) arguments.getOrDefault("total_cents", 100)).intValue();
    }
}
