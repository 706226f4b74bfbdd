package dev.warden.audit.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code data} of each event in a text/event-stream body (the SSE format: {@code data:} lines
 * joined by newlines, an event ended by a blank line or the end of the body). Scanned line by line,
 * no regex: the body is the server's, untrusted.
 */
final class ServerSentEvents {

    private ServerSentEvents() {
    }

    static List<String> data(String body) {
        List<String> events = new ArrayList<>();
        StringBuilder current = null;
        int start = 0;
        while (start <= body.length()) {
            int end = body.indexOf('\n', start);
            if (end < 0) {
                end = body.length();
            }
            String line = body.substring(start, end);
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            if (line.isEmpty()) {
                if (current != null) {
                    events.add(current.toString());
                    current = null;
                }
            } else if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                if (current == null) {
                    current = new StringBuilder(value);
                } else {
                    current.append('\n').append(value);
                }
            }
            start = end + 1;
        }
        if (current != null) {
            events.add(current.toString());
        }
        return events;
    }
}
