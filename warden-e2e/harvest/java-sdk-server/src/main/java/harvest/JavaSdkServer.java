package harvest;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.BiFunction;

/**
 * An MCP server (stdio) on the official MCP Java SDK, written the way a Java server author writes one:
 * its configuration (database URL, user, password, file root) comes from the environment, and a tool
 * that fails lets the exception propagate, so what the client receives is what the SDK makes of it.
 * scripts/harvest-corpus plants canaries through that configuration and captures the frames.
 */
public final class JavaSdkServer {

    private static final String SQL_SCHEMA = """
            {"type":"object","properties":{"sql":{"type":"string"}},"required":["sql"]}""";
    private static final String PATH_SCHEMA = """
            {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}""";

    private JavaSdkServer() {
    }

    public static void main(String[] args) {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        String url = System.getenv("PG_JDBC_URL");
        String user = System.getenv("PG_USER");
        Path root = Path.of(System.getenv("FILE_ROOT"));
        McpServer.sync(new StdioServerTransportProvider(json))
                .serverInfo("harvest-java-sdk", "1.0.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(
                        tool(json, "pg_query", "Runs SQL on the application database", SQL_SCHEMA,
                                (exchange, a) -> query(url, user, System.getenv("PG_PASSWORD"), (String) a.get("sql"))),
                        tool(json, "pg_replica_query", "Runs SQL on the read replica", SQL_SCHEMA,
                                (exchange, a) -> query(url, user, System.getenv("PG_REPLICA_PASSWORD"),
                                        (String) a.get("sql"))),
                        tool(json, "read_file", "Reads a file under the documents root", PATH_SCHEMA,
                                (exchange, a) -> read(root.resolve((String) a.get("path")))))
                .build();
    }

    private static SyncToolSpecification tool(McpJsonMapper json, String name, String description, String schema,
            BiFunction<Object, java.util.Map<String, Object>, CallToolResult> call) {
        return SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name(name).description(description).inputSchema(json, schema).build())
                .callHandler((exchange, request) -> call.apply(exchange, request.arguments()))
                .build();
    }

    /** The rows as tab-separated lines; a failure propagates, wrapped as the lambda requires. */
    private static CallToolResult query(String url, String user, String password, String sql) {
        try (Connection c = DriverManager.getConnection(url, user, password);
                Statement s = c.createStatement()) {
            StringBuilder out = new StringBuilder();
            if (s.execute(sql)) {
                try (ResultSet rs = s.getResultSet()) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int i = 1; i <= columns; i++) {
                            out.append(i > 1 ? "\t" : "").append(rs.getString(i));
                        }
                        out.append('\n');
                    }
                }
            } else {
                out.append(s.getUpdateCount()).append(" row(s)");
            }
            return CallToolResult.builder().addTextContent(out.toString()).build();
        } catch (SQLException e) {
            throw new RuntimeException(e);
        }
    }

    private static CallToolResult read(Path file) {
        try {
            return CallToolResult.builder().addTextContent(Files.readString(file)).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
