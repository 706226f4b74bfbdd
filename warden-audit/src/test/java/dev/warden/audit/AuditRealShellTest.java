package dev.warden.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A real process that passes its argument to a real shell ({@code subprocess.run(..., shell=True)}
 * in Python's standard library): the shell canary's echo comes back assembled, and the report
 * carries neither the token nor the command.
 */
class AuditRealShellTest {

    private static final String SERVER = """
            import json, subprocess, sys
            def send(m):
                sys.stdout.write(json.dumps(m) + "\\n"); sys.stdout.flush()
            for line in sys.stdin:
                try:
                    m = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(m, dict) or "id" not in m or "method" not in m:
                    continue
                i, method = m["id"], m["method"]
                if method == "initialize":
                    send({"jsonrpc": "2.0", "id": i, "result": {"protocolVersion": "2025-06-18",
                          "capabilities": {"tools": {}}, "serverInfo": {"name": "py-lookup", "version": "1"}}})
                elif method == "tools/list":
                    send({"jsonrpc": "2.0", "id": i, "result": {"tools": [{"name": "lookup", "inputSchema": {
                          "type": "object", "properties": {"host": {"type": "string", "maxLength": 256}},
                          "required": ["host"]}}]}})
                elif method == "tools/call":
                    host = (m.get("params") or {}).get("arguments", {}).get("host")
                    if not isinstance(host, str):
                        send({"jsonrpc": "2.0", "id": i, "result": {"isError": True, "content": [
                              {"type": "text", "text": "{\\"code\\": \\"VALIDATION_ERROR\\"}"}]}})
                        continue
                    out = subprocess.run("echo looking up " + host, shell=True, capture_output=True, text=True,
                                         timeout=5)
                    sys.stderr.write(out.stderr)
                    send({"jsonrpc": "2.0", "id": i, "result": {"content": [{"type": "text", "text": out.stdout}]}})
                elif method == "ping":
                    send({"jsonrpc": "2.0", "id": i, "result": {}})
                else:
                    send({"jsonrpc": "2.0", "id": i, "error": {"code": -32601, "message": "Method not found"}})
            """;

    @Test
    void a_real_shell_assembles_the_canary_and_the_report_says_so_without_the_token() {
        Report report = Audit.custom().target(Target.stdio(List.of("python3", "-c", SERVER)))
                .callTimeout(Duration.ofSeconds(10)).rate(10_000).build().run();

        assertThat(report.findings()).as(report.findings().toString()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.COMMAND_INJECTION);
            assertThat(f.tool()).contains("lookup");
            assertThat(f.message()).startsWith("Confirmed by a shell canary");
        });
        assertThat(report.findings().toString()).doesNotContain("wdnprobe-", "wdn\"\"probe");
    }
}
