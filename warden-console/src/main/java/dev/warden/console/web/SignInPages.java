package dev.warden.console.web;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * What a browser is told when it cannot sign in here: the gateway's auth has API keys alone (or the
 * console no client id), and a browser sends no key by itself. Fixed words, the refusal's status
 * and challenge kept.
 */
final class SignInPages {

    private SignInPages() {
    }

    static Answer needsIssuer(Answer refusal) {
        String page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Warden console · sign "
                + "in</title></head>\n<body><main><h1>Sign in</h1>"
                + "<p id=\"needs-issuer\">The console needs a credential with its admin scope, and a browser sends none "
                + "by itself. A browser signs in here when the gateway's <code>auth:</code> names an OAuth issuer and "
                + "the console has a client id at it (<code>--console-client-id</code>). With API keys alone, read the "
                + "console with a client that sends <code>X-API-Key</code>.</p></main></body></html>\n";
        Map<String, String> headers = new HashMap<>(refusal.headers());
        headers.put("Content-Type", "text/html; charset=utf-8");
        return new Answer(refusal.status(), headers, page.getBytes(StandardCharsets.UTF_8));
    }
}
