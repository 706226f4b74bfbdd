package dev.warden.e2e;

import dev.warden.e2e.OrdersSample.Framework;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * The table of docs/guides/sdk-comparison.md: per seed failure and framework, how the answer reaches
 * the client and which of the server's internals it carries. {@link #EXPECTED} is what was measured;
 * {@link SdkComparisonEndToEndTest} measures again and compares.
 */
final class SdkComparisonTable {

    /** The orders server's calls (orders-client.mjs SEEDS). */
    enum Seed {
        SUCCESS("success", "success: `get_order`"),
        NPE("npe", "NullPointerException deep in the code: `order_total`"),
        SQL("sql", "PostgreSQL error (undefined column): `customer_orders`"),
        TOKEN("token", "upstream URL with a token: `track_shipment`"),
        PATH("path", "missing file (checked IOException): `invoice`"),
        VALIDATION("validation", "trusted refusal (quantity 500): `place_order`");

        final String key;
        final String title;

        Seed(String key, String title) {
            this.key = key;
            this.title = title;
        }
    }

    /** What only the server knows, as the seeds put it into exception messages. */
    enum Leak {
        STACK("stack frames", Pattern.compile("\\tat |\\.java:\\d+\\)")),
        EXCEPTION("exception class or NPE detail", Pattern.compile(
                "\\b[a-z]\\w*(?:\\.[a-z]\\w*)+\\.[A-Z]\\w*(?:Exception|Error|Rejected)\\b|Cannot invoke \"")),
        SQL("SQL table/column", Pattern.compile("customer_email")),
        HOST("internal host", Pattern.compile(Pattern.quote("carrier.orders.invalid"))),
        TOKEN("token", Pattern.compile(Pattern.quote(OrdersSample.TOKEN))),
        PATH("server path", Pattern.compile(Pattern.quote(OrdersSample.TEMPLATES)));

        final String label;
        final Pattern pattern;

        Leak(String label, Pattern pattern) {
            this.label = label;
            this.pattern = pattern;
        }
    }

    /** A result, an {@code isError} result, a JSON-RPC error, or an HTTP error with no JSON-RPC answer at all. */
    enum Answer {
        RESULT, IS_ERROR, JSON_RPC_ERROR, HTTP_ERROR
    }

    static final String FIX = "quantity must be between 1 and 100";

    /**
     * One cell: the answer's form, its JSON-RPC code or HTTP status (0 for a result), what leaked, whether the trusted
     * refusal's text reached the model, and, for the hook rows, the exception the hook received.
     */
    record Cell(Answer answer, int code, Set<Leak> leaks, boolean fixKept, String hookSaw) {

        Cell {
            leaks = leaks.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(leaks));
        }

        static Cell of(Seed seed, JsonNode capture) {
            boolean ok = capture.path("ok").asBoolean();
            JsonNode body = ok ? capture.path("value") : capture.path("error");
            String text = strings(body);
            Set<Leak> leaks = EnumSet.noneOf(Leak.class);
            for (Leak leak : Leak.values()) {
                if (leak.pattern.matcher(text).find()) {
                    leaks.add(leak);
                }
            }
            // The SDK client reports an HTTP failure with a string code and the status in data.
            boolean rpc = !ok && body.path("code").isNumber();
            Answer answer = ok ? (body.path("isError").asBoolean() ? Answer.IS_ERROR : Answer.RESULT)
                    : rpc ? Answer.JSON_RPC_ERROR : Answer.HTTP_ERROR;
            int code = ok ? 0 : rpc ? body.path("code").asInt() : body.path("data").path("status").asInt();
            JsonNode hook = body.path("structuredContent").path("hook");
            String hookSaw = hook.isMissingNode() ? ""
                    : hook.path("exception").asString() + (hook.has("sqlState")
                            ? " " + hook.path("sqlState").asString() : "");
            return new Cell(answer, code, leaks,
                    seed == Seed.VALIDATION && text.contains(FIX), hookSaw);
        }

        String markdown() {
            List<String> parts = new ArrayList<>();
            parts.add(switch (answer) {
                case RESULT -> "result";
                case IS_ERROR -> "`isError`";
                case JSON_RPC_ERROR -> "JSON-RPC `" + code + "`";
                case HTTP_ERROR -> "HTTP " + code + ", no JSON-RPC answer";
            });
            if (fixKept) {
                parts.add("fix kept");
            }
            if (!hookSaw.isEmpty()) {
                parts.add("hook got `" + hookSaw + "`");
            }
            if (!leaks.isEmpty()) {
                parts.add("**leaks** " + leaks.stream().sorted().map(l -> l.label).collect(Collectors.joining(", ")));
            }
            return String.join("; ", parts);
        }
    }

    private static Cell cell(Answer answer, int code, Leak... leaks) {
        return new Cell(answer, code, leaks.length == 0 ? Set.of() : EnumSet.of(leaks[0], leaks), false, "");
    }

    private static Cell result() {
        return cell(Answer.RESULT, 0);
    }

    private static Cell isError(Leak... leaks) {
        return cell(Answer.IS_ERROR, 0, leaks);
    }

    private static Cell rpcError(int code, Leak... leaks) {
        return cell(Answer.JSON_RPC_ERROR, code, leaks);
    }

    private static Cell fixKept(Cell cell) {
        return new Cell(cell.answer(), cell.code(), cell.leaks(), true, cell.hookSaw());
    }

    private static Cell httpError(int status, Leak... leaks) {
        return cell(Answer.HTTP_ERROR, status, leaks);
    }

    private static Cell hooked(String saw) {
        return new Cell(Answer.IS_ERROR, 0, Set.of(), false, saw);
    }

    /** Measured with Spring AI 2.0.1 (SDK 2.0.0) and quarkus-mcp-server-http 1.13.0 (Quarkus 3.33.2). */
    static final Map<Framework, Map<Seed, Cell>> EXPECTED = new EnumMap<>(Framework.class);

    static {
        EXPECTED.put(Framework.SPRING_AI_MCP_TOOL, row(result(), isError(Leak.EXCEPTION), isError(Leak.SQL),
                isError(Leak.HOST, Leak.TOKEN), httpError(500), fixKept(isError())));
        EXPECTED.put(Framework.SPRING_AI_TOOL, row(result(), isError(Leak.EXCEPTION), isError(Leak.SQL),
                isError(Leak.HOST, Leak.TOKEN), isError(Leak.PATH), fixKept(isError())));
        EXPECTED.put(Framework.QUARKUS, row(result(), rpcError(-32603), rpcError(-32603), rpcError(-32603),
                rpcError(-32603), fixKept(isError(Leak.EXCEPTION))));
        EXPECTED.put(Framework.SPRING_AI_MCP_TOOL_HOOKED, row(result(), hooked("NullPointerException"),
                hooked("IllegalStateException 42703"), hooked("UncheckedIOException"),
                hooked("NoSuchFileException"), fixKept(isError())));
        EXPECTED.put(Framework.SPRING_AI_TOOL_HOOKED, row(result(), hooked("NullPointerException"),
                hooked("IllegalStateException 42703"), hooked("UncheckedIOException"),
                hooked("NoSuchFileException"), fixKept(isError())));
    }

    private static Map<Seed, Cell> row(Cell... cells) {
        Map<Seed, Cell> row = new EnumMap<>(Seed.class);
        for (Seed seed : Seed.values()) {
            row.put(seed, cells[seed.ordinal()]);
        }
        return row;
    }

    /** The guide's table: one row per seed, one column per framework. */
    static String markdown() {
        StringBuilder md = new StringBuilder("| seed failure |");
        for (Framework f : Framework.values()) {
            md.append(' ').append(f.title).append(" |");
        }
        md.append("\n|---|").append("---|".repeat(Framework.values().length)).append('\n');
        for (Seed seed : Seed.values()) {
            md.append("| ").append(seed.title).append(" |");
            for (Framework f : Framework.values()) {
                md.append(' ').append(EXPECTED.get(f).get(seed).markdown()).append(" |");
            }
            md.append('\n');
        }
        return md.toString();
    }

    /** Every string in a JSON value, decoded (what a model reads), one per line. */
    private static String strings(JsonNode node) {
        StringBuilder all = new StringBuilder();
        collect(node, all);
        return all.toString();
    }

    private static void collect(JsonNode node, StringBuilder all) {
        if (node.isString()) {
            all.append(node.asString()).append('\n');
        } else if (node.isNumber()) {
            all.append(node.asString()).append('\n');
        } else {
            node.values().forEach(child -> collect(child, all));
        }
    }

    private SdkComparisonTable() {
    }
}
