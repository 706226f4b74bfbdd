package dev.warden.server.internal;

import dev.warden.core.error.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/** Opaque pagination cursors: an offset, encoded so that clients do not build them by hand. */
public final class Cursor {

    private static final String PREFIX = "wdn1:";

    private Cursor() {
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

    public static String encode(int offset) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((PREFIX + offset).getBytes(StandardCharsets.UTF_8));
    }

    /** The offset a cursor stands for; an unreadable cursor is -32602, without echoing it. */
    public static int decode(Optional<String> cursor, int size) {
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
}
