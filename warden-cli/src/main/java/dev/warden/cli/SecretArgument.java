package dev.warden.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An option's value that may be a secret: {@code @FILE} reads it from the file's first line, so a
 * password or a token need not stand in the command line, where {@code ps} and the shell's history
 * show it ({@code --login @<(pass show shop/alice)} works too); {@code @@} stands for a value that
 * itself starts with {@code @}. Errors name the option, never the value or what the file holds: a
 * value meant literally (an account written {@code @alice:PASSWORD}) may be a secret.
 */
final class SecretArgument {

    /** More than any header or account line; a larger file is not a secret's. */
    static final int MAX_BYTES = 64 * 1024;

    private SecretArgument() {
    }

    /** The value itself, or the first line of the file an {@code @} names (its line ending dropped). */
    static String of(String option, String value) {
        if (!value.startsWith("@")) {
            return value;
        }
        if (value.startsWith("@@")) {
            return value.substring(1);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(Path.of(value.substring(1)))) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(option + ": cannot read the file its @ names (a value that itself "
                    + "starts with @ is written @@)");
        }
        String file = "the file its @ names";
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException(option + ": " + file + " is larger than " + MAX_BYTES + " bytes");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(option + ": " + file + " is not UTF-8 text");
        }
        // A byte-order mark, as some editors write, is not part of the value.
        text = text.startsWith("\uFEFF") ? text.substring(1) : text;
        int end = text.indexOf('\n');
        String line = end < 0 ? text : text.substring(0, end);
        line = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        if (line.isBlank()) {
            throw new IllegalArgumentException(option + ": the first line of " + file + " is empty");
        }
        // Refused here, naming nothing of it: later, an HTTP client's error would quote the value.
        if (line.chars().anyMatch(c -> (c < 0x20 && c != '\t') || c == 0x7f)) {
            throw new IllegalArgumentException(option + ": the first line of " + file + " holds a control character");
        }
        return line;
    }
}
