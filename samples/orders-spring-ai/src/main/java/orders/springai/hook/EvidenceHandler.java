package orders.springai.hook;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import orders.desk.OrderRejected;

/**
 * The prototype's handler: it proves the original exception arrived (its class's simple name, and
 * the SQLSTATE that only the exception object carries) without sending any untrusted text. The trusted refusal
 * keeps its message, as Warden's adapter will for the types it is told to trust.
 */
final class EvidenceHandler implements ToolFailureHandler {

    @Override
    public CallToolResult onFailure(String tool, Throwable original) {
        if (original instanceof OrderRejected rejected) {
            return CallToolResult.builder().isError(true).addTextContent(rejected.getMessage()).build();
        }
        Map<String, Object> seen = new LinkedHashMap<>();
        seen.put("tool", tool);
        seen.put("exception", original.getClass().getSimpleName());
        for (Throwable t = original; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                seen.put("sqlState", sql.getSQLState());
                break;
            }
        }
        return CallToolResult.builder().isError(true).addTextContent("The tool failed.")
                .structuredContent(Map.of("hook", seen)).build();
    }
}
