package dev.warden.audit;

import java.util.List;

/**
 * A stdio MCP server in sh, for what only a process does (writes to stderr): it initializes as
 * {@code sh} 1, lists its tools, and answers each call by running a shell line and printing a result.
 * The pieces are printf formats (a {@code \n} in them is printf's).
 */
final class ShellServer {

    private ShellServer() {
    }

    /**
     * @param toolJson the tool's definition, as tools/list gives it
     * @param onCall   a shell line each call runs before answering (such as a printf to stderr)
     * @param result   the call's result, as a JSON-RPC result object
     */
    static List<String> command(String toolJson, String onCall, String result) {
        return command(toolJson, "", onCall, result);
    }

    /** As {@link #command(String, String, String)}, with case branches of its own tried before a call's ({@code *'"name":"x"'*) exit 3 ;;}). */
    static List<String> command(String toolsJson, String cases, String onCall, String result) {
        String script = """
                while IFS= read -r line; do
                  id=$(printf '%s' "$line" | sed -n 's/^{"jsonrpc":"2.0","id":\\("[^"]*"\\|[0-9]*\\),.*/\\1/p')
                  [ -z "$id" ] && continue
                  case "$line" in
                    *'"method":"initialize"'*)
                      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"1"}}}\\n' "$id" ;;
                    *'"method":"tools/list"'*)
                      printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[TOOL]}}\\n' "$id" ;;
                    CASES
                    *'"method":"tools/call"'*)
                      ONCALL
                      printf '{"jsonrpc":"2.0","id":%s,"result":RESULT}\\n' "$id" ;;
                    *)
                      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\\n' "$id" ;;
                  esac
                done
                """.replace("TOOL", toolsJson).replace("CASES", cases).replace("ONCALL", onCall).replace("RESULT", result);
        return List.of("sh", "-c", script);
    }
}
