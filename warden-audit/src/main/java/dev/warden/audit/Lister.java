package dev.warden.audit;

import dev.warden.audit.internal.Pacer;
import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a listing ({@code tools/list}, {@code resources/list}, {@code prompts/list}) page by page,
 * each page a request of the budget, within bounds whatever the server sends: at most {@link
 * #MAX_ITEMS} items and {@link #MAX_BYTES} of them kept, at most {@link #MAX_PAGES} pages. An item
 * listed again (same name or URI) is kept once. A cursor given before, or {@link #BARREN_PAGES}
 * pages in a row that list nothing new yet give a next cursor, is a loop ({@link
 * Rule#PAGINATION_LOOP}); a listing past a bound is cut ({@link Rule#LISTING_CUT}).
 */
final class Lister {

    static final int MAX_ITEMS = 1_000;
    static final long MAX_BYTES = 16L * 1024 * 1024;
    static final int MAX_PAGES = 100;
    static final int BARREN_PAGES = 3;

    /** The items kept, and how the listing ended. */
    record Listed(List<JsonNode> items, Coverage.Listing end) {
        Listed {
            items = List.copyOf(items);
        }
    }

    private final Line line;
    private final Pacer pacer;
    private final FindingSet findings;
    private final List<String> skipped;

    Lister(Line line, Pacer pacer, FindingSet findings, List<String> skipped) {
        this.line = line;
        this.pacer = pacer;
        this.findings = findings;
        this.skipped = skipped;
    }

    /** Every page of {@code method}'s listing within the bounds; {@code field} holds a page's items. */
    Listed list(String method, String field) {
        List<JsonNode> items = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        Map<String, Integer> cursors = new HashMap<>(); // a cursor's digest -> the page that gave it
        long bytes = 0;
        int barren = 0;
        Optional<String> cursor = Optional.empty();
        for (int page = 1; ; page++) {
            if (page > MAX_PAGES) {
                return cut(method, field, items, "more than " + MAX_PAGES + " pages");
            }
            if (!pacer.take()) {
                skipped.add(method + ": budget spent before the listing was complete");
                return new Listed(items, new Coverage.Listing.Unfinished("the budget was spent before its end"));
            }
            ObjectNode params = Json.object();
            cursor.ifPresent(c -> params.put("cursor", c));
            JsonNode answer;
            try {
                answer = line.page(method, params);
            } catch (RuntimeException e) {
                skipped.add(method + ": failed (" + e.getClass().getSimpleName() + ")");
                return new Listed(items, new Coverage.Listing.Unfinished(method + " failed"));
            }
            int added = 0;
            for (JsonNode item : answer.path(field)) {
                if (!keys.add(key(item, keys.size()))) {
                    continue;
                }
                long size = Json.mapper().writeValueAsBytes(item).length;
                if (items.size() >= MAX_ITEMS) {
                    return cut(method, field, items, "more than " + MAX_ITEMS + " " + field);
                }
                if (bytes + size > MAX_BYTES) {
                    return cut(method, field, items, "more than " + MAX_BYTES / (1024 * 1024) + " MiB of " + field);
                }
                items.add(item);
                bytes += size;
                added++;
            }
            JsonNode next = answer.path("nextCursor");
            if (!next.isString()) {
                return new Listed(items, new Coverage.Listing.Ended());
            }
            Integer before = cursors.putIfAbsent(digest(next.asString()), page);
            if (before != null) {
                return loop(method, items, "page " + page + " gave a next cursor given before, on page " + before);
            }
            barren = added == 0 ? barren + 1 : 0;
            if (barren >= BARREN_PAGES) {
                return loop(method, items, BARREN_PAGES + " pages in a row were empty (nothing not listed before) "
                        + "yet each gave a next cursor");
            }
            cursor = Optional.of(next.asString());
        }
    }

    private Listed loop(String method, List<JsonNode> items, String what) {
        findings.add(Rule.PAGINATION_LOOP, Optional.empty(), method, "/result/nextCursor",
                "The listing never ends: " + what + "; a client that follows cursors never stops");
        skipped.add(method + ": stopped, the listing never ends (" + what + ")");
        return new Listed(items, new Coverage.Listing.Unfinished("a pagination loop: " + what));
    }

    private Listed cut(String method, String field, List<JsonNode> items, String what) {
        findings.add(Rule.LISTING_CUT, Optional.empty(), method, "/result/" + field, "The server lists " + what
                + "; the audit read the first " + items.size() + " " + field + " (the rest were neither checked nor probed)");
        skipped.add(method + ": cut after " + items.size() + " " + field + " (the server lists " + what + ")");
        return new Listed(items, new Coverage.Listing.Cut("the server lists " + what + "; " + items.size() + " read"));
    }

    /** What names an item: a tool's or prompt's name, a resource's URI; a nameless one is its own. */
    private static String key(JsonNode item, int index) {
        JsonNode name = item.path("name");
        JsonNode uri = item.path("uri");
        return name.isString() ? "name:" + name.asString() : uri.isString() ? "uri:" + uri.asString() : "#" + index;
    }

    /** A cursor may be megabytes long: kept as its SHA-256. */
    private static String digest(String cursor) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(cursor.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK has SHA-256", e);
        }
    }
}
