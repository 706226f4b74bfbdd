import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A leaky MCP server as Java authors write one: newline-delimited JSON-RPC on stdio, the JDK only
 * (run as a single-file program: {@code java LeakyServer.java}). Every failure is real: the runtime
 * throws it, printStackTrace writes it. What leaks is planted: the absolute path of a file under the
 * server's own directory, DATABASE_URL from its environment, the frames of its own classes.
 */
public class LeakyServer {

    static final List<String> TOOLS = List.of("java_stack_trace", "java_missing_file", "java_config", "java_log");
    static final PrintWriter OUT = new PrintWriter(System.out, true, StandardCharsets.UTF_8);

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            Object parsed;
            try {
                parsed = new Parser(line).value();
            } catch (RuntimeException e) {
                continue;
            }
            if (parsed instanceof Map<?, ?> msg && msg.containsKey("id")) {
                send("{\"jsonrpc\":\"2.0\",\"id\":" + json(msg.get("id")) + "," + answer(msg) + "}");
            }
        }
    }

    static synchronized void send(String line) {
        OUT.println(line);
    }

    static String answer(Map<?, ?> msg) {
        Object method = msg.get("method");
        Map<?, ?> params = msg.get("params") instanceof Map<?, ?> p ? p : Map.of();
        if ("initialize".equals(method)) {
            Object version = params.containsKey("protocolVersion") ? params.get("protocolVersion") : "2025-06-18";
            return "\"result\":{\"protocolVersion\":" + json(version) + ",\"capabilities\":{\"tools\":{},\"logging\":{}},"
                    + "\"serverInfo\":{\"name\":\"leaky-java\",\"version\":\"1.0.0\"}}";
        }
        if ("ping".equals(method) || "logging/setLevel".equals(method)) {
            return "\"result\":{}";
        }
        if ("tools/list".equals(method)) {
            List<String> tools = new ArrayList<>();
            for (String t : TOOLS) {
                tools.add("{\"name\":" + json(t) + ",\"inputSchema\":{\"type\":\"object\"}}");
            }
            return "\"result\":{\"tools\":[" + String.join(",", tools) + "]}";
        }
        if ("tools/call".equals(method)) {
            return call(String.valueOf(params.get("name")));
        }
        return "\"error\":{\"code\":-32601,\"message\":\"Method not found\"}";
    }

    static String call(String name) {
        switch (name) {
            case "java_stack_trace" -> {
                try {
                    Orders.total(List.of("12", "7,5"));
                } catch (RuntimeException e) {
                    return "\"result\":" + text(stackTrace(e), true);
                }
            }
            case "java_missing_file" -> {
                Path config = Path.of(System.getProperty("leaky.home", ".")).toAbsolutePath()
                        .resolve("config").resolve("cnry_app_7f3a.properties");
                try {
                    return "\"result\":" + text(Files.readString(config), false);
                } catch (Exception e) {
                    // The official Java SDK's habit: getMessage() as the message, the trace in data.
                    return "\"error\":{\"code\":-32603,\"message\":" + json(String.valueOf(e.getMessage()))
                            + ",\"data\":" + json(stackTrace(e)) + "}";
                }
            }
            case "java_config" -> {
                try {
                    Orders.connect(System.getenv().getOrDefault("DATABASE_URL", ""));
                } catch (IllegalStateException e) {
                    return "\"result\":" + text("Configuration error: " + e.getMessage(), true);
                }
            }
            case "java_log" -> {
                try {
                    Orders.total(List.of("twelve"));
                } catch (RuntimeException e) {
                    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"error\","
                            + "\"logger\":\"orders\",\"data\":" + json(stackTrace(e)) + "}}");
                }
                return "\"result\":" + text("no total", false);
            }
            default -> {
                // an unknown tool
            }
        }
        return "\"error\":{\"code\":-32602,\"message\":\"Unknown tool\"}";
    }

    static String stackTrace(Throwable e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        return trace.toString();
    }

    static String text(String t, boolean isError) {
        return "{\"content\":[{\"type\":\"text\",\"text\":" + json(t) + "}]" + (isError ? ",\"isError\":true" : "") + "}";
    }

    static String json(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        String s = value.toString();
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** The application's own code, so that its frames are in every trace. */
    static final class Orders {
        static long total(List<String> amounts) {
            long sum = 0;
            for (String amount : amounts) {
                sum += Long.parseLong(amount);
            }
            return sum;
        }

        static void connect(String url) {
            throw new IllegalStateException("cannot connect to " + url + " (connection refused)");
        }
    }

    /** Just enough JSON to read a request: objects, arrays, strings, numbers, true, false, null. */
    static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s;
        }

        Object value() {
            skip();
            char c = s.charAt(i);
            if (c == '{') {
                Map<String, Object> o = new LinkedHashMap<>();
                i++;
                skip();
                if (s.charAt(i) == '}') {
                    i++;
                    return o;
                }
                do {
                    skip();
                    String key = string();
                    skip();
                    expect(':');
                    o.put(key, value());
                    skip();
                } while (s.charAt(i++) == ',');
                if (s.charAt(i - 1) != '}') {
                    throw new IllegalArgumentException("bad object");
                }
                return o;
            }
            if (c == '[') {
                List<Object> a = new ArrayList<>();
                i++;
                skip();
                if (s.charAt(i) == ']') {
                    i++;
                    return a;
                }
                do {
                    a.add(value());
                    skip();
                } while (s.charAt(i++) == ',');
                if (s.charAt(i - 1) != ']') {
                    throw new IllegalArgumentException("bad array");
                }
                return a;
            }
            if (c == '"') {
                return string();
            }
            int start = i;
            while (i < s.length() && ",}] \t\r\n".indexOf(s.charAt(i)) < 0) {
                i++;
            }
            String token = s.substring(start, i);
            return switch (token) {
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                case "null" -> null;
                default -> token.contains(".") || token.contains("e") || token.contains("E")
                        ? (Object) Double.valueOf(token) : (Object) Long.valueOf(token);
            };
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            for (char c = s.charAt(i++); c != '"'; c = s.charAt(i++)) {
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case 'r' -> b.append('\r');
                        case 'b' -> b.append('\b');
                        case 'f' -> b.append('\f');
                        case 'u' -> {
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                        }
                        default -> b.append(e);
                    }
                } else {
                    b.append(c);
                }
            }
            return b.toString();
        }

        private void expect(char c) {
            if (s.charAt(i++) != c) {
                throw new IllegalArgumentException("expected " + c);
            }
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
