package dev.warden.cli;

import dev.warden.core.transport.StdioTransport;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --max-message-bytes}: the largest message accepted. Absent, the command's default holds
 * (the gateway's configuration file may set one; elsewhere {@link #DEFAULT}).
 */
final class MaxMessageBytesOption {

    static final String NAME = "--max-message-bytes";
    static final int DEFAULT = StdioTransport.DEFAULT_MAX_MESSAGE_BYTES;
    static final String LABEL = "BYTES";

    @Option(names = NAME, paramLabel = LABEL,
            description = "Largest accepted message (default: " + DEFAULT + ").")
    Integer maxMessageBytes;

    Optional<Integer> given() {
        return Optional.ofNullable(maxMessageBytes);
    }

    int orDefault() {
        return maxMessageBytes != null ? maxMessageBytes : DEFAULT;
    }
}
