package dev.warden.client.http;

import dev.warden.core.jsonrpc.FrameHints;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The one reader of server-sent events for both HTTP transports: events whose data is at most
 * {@code max} bytes, each line and the data assembled from several lines alike, so a server cannot
 * make the client hold an event of any size. An event over the limit is read through without being
 * kept and comes out as {@link Item.Oversized} (its edges tell whose answer it was), once.
 */
final class SseEvents {

    /** What the stream held next. */
    sealed interface Item {
        /** One event: its type ({@code message} unless named) and its data (possibly empty). */
        record Event(String type, String data) implements Item {
        }

        /** One event too large to keep: only the edges of its data. */
        record Oversized(BoundedLines.Line edges) implements Item {
        }
    }

    private final BoundedLines lines;
    private final int max;
    private final Inbound.StreamState state;
    /** Inside an event already reported too large: its lines are skipped up to its end. */
    private boolean skipping;

    SseEvents(InputStream in, int max, Inbound.StreamState state) {
        this.lines = new BoundedLines(in, max);
        this.max = max;
        this.state = state;
    }

    /** The next event (or oversized event), or empty at the end of the stream; comments are skipped. */
    Optional<Item> next() throws IOException {
        String type = "message";
        StringBuilder data = null;
        BoundedLines.Line next;
        while ((next = lines.next()) != null) {
            String line = next.text();
            if (!next.oversized() && line.isEmpty()) {
                if (data != null && !skipping) {
                    return Optional.of(new Item.Event(type, data.toString()));
                }
                skipping = false;
                type = "message";
                data = null;
            } else if (skipping) {
                continue; // the rest of an event already reported too large: read through, not kept
            } else if (next.oversized() || data != null && line.startsWith("data:")
                    && data.length() + line.length() > max) {
                // Reported at once, so the request it answers fails now, not at its timeout.
                skipping = true;
                return Optional.of(new Item.Oversized(next.oversized() ? next : new BoundedLines.Line("", true,
                        data.substring(0, Math.min(data.length(), FrameHints.EDGE)).getBytes(StandardCharsets.UTF_8),
                        new byte[0])));
            } else if (line.startsWith("data:")) {
                String value = line.substring(line.startsWith("data: ") ? 6 : 5);
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            } else if (line.startsWith("event:")) {
                type = line.substring(6).trim();
            } else if (line.startsWith("id:")) {
                state.lastEventId = Optional.of(line.substring(3).trim());
            } else if (line.startsWith("retry:")) {
                try {
                    state.retryMillis = Math.min(60_000, Math.max(0, Long.parseLong(line.substring(6).trim())));
                } catch (NumberFormatException e) {
                    // a malformed retry field is ignored, as the SSE standard says
                }
            }
        }
        state.ended(); // read now, before the stream is closed: the retry delay counts from here
        return Optional.empty();
    }
}
