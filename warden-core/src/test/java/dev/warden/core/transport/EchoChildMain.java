package dev.warden.core.transport;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A child process for ProcessTransportTest: answers every request with its params, writes a line to
 * stderr per request, and exits when asked ("exit" method) or at EOF.
 */
public final class EchoChildMain {

    private EchoChildMain() {
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.err.println("child started with a secret in its log: password=hunter2");
        String line;
        while ((line = in.readLine()) != null) {
            var node = dev.warden.core.json.Json.mapper().readTree(line);
            if (!node.has("id") || !node.has("method")) {
                continue;
            }
            String method = node.get("method").stringValue();
            System.err.println("handling " + method);
            if (method.equals("exit")) {
                System.exit(3);
            }
            if (method.equals("hang")) {
                continue; // never answers
            }
            System.out.println("{\"jsonrpc\":\"2.0\",\"id\":" + node.get("id") + ",\"result\":{\"echo\":"
                    + node.path("params") + "}}");
            System.out.flush();
        }
    }
}
