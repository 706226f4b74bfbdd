package dev.warden.core.sanitize.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.sanitize.Policy;
import dev.warden.core.sanitize.Sanitizer;
import org.junit.jupiter.api.Test;

/** A stack trace loses its frames, not its message line: the message says what the caller's code got wrong. */
class TraceMessageLineTest {

    private final Sanitizer sanitizer = Sanitizer.ofDefaults();

    private String redact(String text) {
        return sanitizer.sanitize(text, Policy.REDACT).output();
    }

    @Test
    void anErrorInCodeTheCallerSentKeepsItsMessage() {
        // Node 22's err.stack for code a tool ran with eval(), the server's file in the frames
        String stack = "ReferenceError: cartTotal is not defined\n"
                + "    at eval (eval at runUserCode (file:///srv/sandbox/server.mjs:1:37), <anonymous>:1:15)\n"
                + "    at runUserCode (file:///srv/sandbox/server.mjs:1:37)\n"
                + "    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)\n"
                + "    at async ModuleLoader.import (node:internal/modules/esm/loader:606:24)";
        assertThat(redact(stack)).isEqualTo("ReferenceError: cartTotal is not defined\n[redacted:stack-trace]");
    }

    @Test
    void nodesVmOutputKeepsItsMessageLine() {
        // node -e 'vm.runInNewContext("cartTotal * 2", {})' (Node 22): err.stack
        String stack = "ReferenceError: cartTotal is not defined\n"
                + "    at evalmachine.<anonymous>:1:1\n"
                + "    at Script.runInContext (node:vm:149:12)\n"
                + "    at Script.runInNewContext (node:vm:154:17)\n"
                + "    at Object.runInNewContext (node:vm:310:38)\n"
                + "    at [eval]:1:34\n"
                + "    at runScriptInThisContext (node:internal/vm:209:10)";
        assertThat(redact(stack)).isEqualTo("ReferenceError: cartTotal is not defined\n[redacted:stack-trace]");
    }

    @Test
    void aPythonTracebackKeepsItsLastLineTheMessage() {
        // python3 (3.12) running code a tool exec()s, traceback.format_exc()
        String trace = "Traceback (most recent call last):\n"
                + "  File \"/srv/app/tools/run.py\", line 12, in run_code\n"
                + "    exec(code, env)\n"
                + "  File \"<string>\", line 1, in <module>\n"
                + "NameError: name 'cart_total' is not defined";
        assertThat(redact(trace)).isEqualTo("[redacted:stack-trace]\nNameError: name 'cart_total' is not defined");
    }

    @Test
    void aPythonTracebackEndingInADottedNameGoesWhole() {
        String trace = "Traceback (most recent call last):\n"
                + "  File \"/srv/app/client.py\", line 40, in fetch\n"
                + "    r.raise_for_status()\n"
                + "requests.exceptions.HTTPError: 500 Server Error for url: http://billing.internal:8080/v1";
        assertThat(redact(trace)).isEqualTo("[redacted:stack-trace]");
    }

    @Test
    void aServerClassNameStillGoesWithItsFrames() {
        assertThat(redact("com.acme.billing.LedgerException: x\n\tat com.acme.billing.Ledger.post(Ledger.java:9)"))
                .isEqualTo("[redacted:stack-trace]");
    }
}
