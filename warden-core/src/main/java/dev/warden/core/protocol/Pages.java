package dev.warden.core.protocol;

import dev.warden.core.error.ProtocolException;
import dev.warden.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Paged lists ({@code tools/list}, {@code resources/list}, …), both halves, for the SDK's server
 * and the gateway alike: the pages a server serves (an opaque cursor for an offset, so that
 * clients do not build them by hand; a bad one refused), and the pages read from a server that
 * pages, cursor to cursor, at most {@link #MAX_READ}.
 */
public final class Pages {

    public static final String CURSOR = "cursor";
    public static final String NEXT_CURSOR = "nextCursor";
    /** Pages of one server's list read at most: a list that never ends is not followed forever. */
    public static final int MAX_READ = 100;
    private static final String PREFIX = "wdn1:";

    private Pages() {
    }

    /** One page of a listing. */
    public record Page<T>(List<T> items, Optional<String> nextCursor) {
    }

    /** The page a {@code cursor} param asks for; an unreadable cursor is -32602. */
    public static <T> Page<T> page(List<T> all, Optional<String> cursor, int pageSize) {
        int from = decode(cursor, all.size());
        int to = Math.min(all.size(), from + pageSize);
        return new Page<>(all.subList(from, to), to < all.size() ? Optional.of(encode(to)) : Optional.empty());
    }

    static String encode(int offset) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((PREFIX + offset).getBytes(StandardCharsets.UTF_8));
    }

    /** The offset a cursor stands for; an unreadable cursor is -32602, without echoing it. */
    static int decode(Optional<String> cursor, int size) {
        if (cursor.isEmpty()) {
            return 0;
        }
        String text = cursor.get();
        try {
            if (text.length() > 64) {
                throw new IllegalArgumentException();
            }
            String decoded = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
            if (!decoded.startsWith(PREFIX)) {
                throw new IllegalArgumentException();
            }
            int offset = Integer.parseInt(decoded.substring(PREFIX.length()));
            if (offset < 0 || offset > size) {
                throw new IllegalArgumentException();
            }
            return offset;
        } catch (IllegalArgumentException e) {
            throw ProtocolException.invalidParams("Invalid params: the cursor is not valid");
        }
    }

    /** The cursor of the page after {@code page}; empty when the list ends there (no cursor, or an empty one). */
    public static Optional<String> next(JsonNode page) {
        return page.path(NEXT_CURSOR).isString() ? Optional.of(page.get(NEXT_CURSOR).stringValue()).filter(c -> !c.isEmpty())
                : Optional.empty();
    }

    /** One list request to a server: its params, the cursor included after the first page. */
    @FunctionalInterface
    public interface Source {
        /** The page the server answered; empty when it gave none (the reader has said why). */
        Optional<JsonNode> page(ObjectNode params) throws Exception;
    }

    /**
     * Every page of a server's list, first to last, at most {@link #MAX_READ}: each is handed to
     * {@code onPage} as it comes, so what was read stays read when a later page fails. False when a
     * page was not given and the reading stopped there.
     */
    public static boolean readAll(Source source, Consumer<JsonNode> onPage) throws Exception {
        return readAll(source, onPage, MAX_READ);
    }

    /** {@link #readAll(Source, Consumer)} for a list whose reader allows fewer pages than {@link #MAX_READ}. */
    public static boolean readAll(Source source, Consumer<JsonNode> onPage, int maxPages) throws Exception {
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            ObjectNode params = Json.object();
            cursor.ifPresent(c -> params.put(CURSOR, c));
            Optional<JsonNode> page = source.page(params);
            if (page.isEmpty()) {
                return false;
            }
            onPage.accept(page.get());
            cursor = next(page.get());
        } while (cursor.isPresent() && ++pages < maxPages);
        return true;
    }
}
