package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

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
    void aServerClassNameStillGoesWithItsFrames() {
        assertThat(redact("com.acme.billing.LedgerException: x\n\tat com.acme.billing.Ledger.post(Ledger.java:9)"))
                .isEqualTo("[redacted:stack-trace]");
    }
}
