package dev.warden.gateway.internal.failure;

/**
 * A name a client chose (its own name, a tool it made up) as a log, audit record or incident may
 * show it: printable ASCII, at most 64 characters, never a {@code #} (which ends the name the
 * gateway adds a number to).
 */
public final class PrintableName {

    private PrintableName() {
    }

    public static String of(String name) {
        StringBuilder b = new StringBuilder();
        name.codePoints().limit(64).forEach(c -> b.append(c > 0x20 && c < 0x7F && c != '#' ? (char) c : '_'));
        return b.isEmpty() ? "client" : b.toString();
    }
}
