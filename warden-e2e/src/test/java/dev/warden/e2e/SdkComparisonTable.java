package dev.warden.e2e;

import dev.warden.core.json.Json;
import dev.warden.e2e.OrdersSample.Framework;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
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
     * refusal's text reached the model, and Warden's error code when the answer carries one (with " + ref" when it
     * also names an incident), else "".
     */
    record Cell(Answer answer, int code, Set<Leak> leaks, boolean fixKept, String warden) {

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
            return new Cell(answer, code, leaks, seed == Seed.VALIDATION && text.contains(FIX),
                    ok ? warden(errorObject(body)) : warden(body.path("data")));
        }

        /** Warden's error object in a tool result: the structured content's, else the text's (JSON). */
        private static JsonNode errorObject(JsonNode result) {
            JsonNode structured = result.path("structuredContent").path("error");
            if (structured.isObject()) {
                return structured;
            }
            String first = result.path("content").path(0).path("text").asString("");
            if (!first.startsWith("{")) {
                return result.path("none");
            }
            try {
                return Json.mapper().readTree(first).path("error");
            } catch (JacksonException e) {
                return result.path("none");
            }
        }

        private static String warden(JsonNode error) {
            JsonNode code = error.path("code");
            if (!code.isString()) {
                return "";
            }
            return code.asString() + (error.path("ref").asString("").startsWith("ref_") ? " + ref" : "");
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
            if (!warden.isEmpty()) {
                parts.add("`" + warden.replace(" + ref", "`, ref"));
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
        return new Cell(cell.answer(), cell.code(), cell.leaks(), true, cell.warden());
    }

    private static Cell httpError(int status, Leak... leaks) {
        return cell(Answer.HTTP_ERROR, status, leaks);
    }

    /** An answer with Warden's error code (and a ref when {@code ref}). */
    private static Cell warden(Cell cell, String code, boolean ref) {
        return new Cell(cell.answer(), cell.code(), cell.leaks(), cell.fixKept(), code + (ref ? " + ref" : ""));
    }

    /** Warden's answer to an exception it does not trust: INTERNAL_ERROR, with the ref of the incident. */
    private static Cell internal() {
        return warden(isError(), "INTERNAL_ERROR", true);
    }

    /**
     * Measured with the official SDK 2.1.0 (warden-mcp-sdk's guard), Spring AI 2.0.1 (SDK 2.0.0; warden-spring-ai),
     * quarkus-mcp-server-http 1.13.0 (Quarkus 3.33.2) and Warden's own server.
     */
    static final Map<Framework, Map<Seed, Cell>> EXPECTED = new EnumMap<>(Framework.class);

    static {
        EXPECTED.put(Framework.OFFICIAL_SDK, row(result(), rpcError(-32603, Leak.EXCEPTION), rpcError(-32603, Leak.SQL),
                rpcError(-32603, Leak.HOST, Leak.TOKEN), rpcError(-32603, Leak.EXCEPTION, Leak.PATH),
                fixKept(isError())));
        EXPECTED.put(Framework.OFFICIAL_SDK_GUARDED, row(result(), internal(), internal(), internal(), internal(),
                fixKept(isError())));
        EXPECTED.put(Framework.SPRING_AI_MCP_TOOL, row(result(), isError(Leak.EXCEPTION), isError(Leak.SQL),
                isError(Leak.HOST, Leak.TOKEN), httpError(500), fixKept(isError())));
        EXPECTED.put(Framework.SPRING_AI_TOOL, row(result(), isError(Leak.EXCEPTION), isError(Leak.SQL),
                isError(Leak.HOST, Leak.TOKEN), isError(Leak.PATH), fixKept(isError())));
        EXPECTED.put(Framework.SPRING_AI_WARDEN, row(result(), internal(), internal(), internal(), internal(),
                warden(fixKept(isError()), "VALIDATION_ERROR", true)));
        EXPECTED.put(Framework.QUARKUS, row(result(), rpcError(-32603), rpcError(-32603), rpcError(-32603),
                rpcError(-32603), fixKept(isError(Leak.EXCEPTION))));
        EXPECTED.put(Framework.WARDEN, row(result(), internal(), internal(), internal(), internal(),
                warden(fixKept(isError()), "VALIDATION_ERROR", true)));
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
        return markdown(List.of(Framework.values()), List.of(Seed.values()));
    }

    /** The rows and columns of the table that matter to one reader (the other guides' "Side by side"). */
    static String markdown(List<Framework> columns, List<Seed> seeds) {
        StringBuilder md = new StringBuilder("| seed failure |");
        for (Framework f : columns) {
            md.append(' ').append(f.title).append(" |");
        }
        md.append("\n|---|").append("---|".repeat(columns.size())).append('\n');
        for (Seed seed : seeds) {
            md.append("| ").append(seed.title).append(" |");
            for (Framework f : columns) {
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
