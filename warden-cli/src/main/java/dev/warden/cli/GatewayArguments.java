package dev.warden.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The usual {@code gateway --config FILE [--port PORT] [--data-dir DIR]} read without picocli, as
 * {@link WrapArguments} reads wrap's: picocli's classes (Java 5 class files) cannot go into the
 * JVM's start-up cache, and modelling the gateway's command with them was a third of its cold start
 * (171 classes loaded and verified before the first answer). Only forms picocli reads the same way
 * are taken (each of those options once, {@code --port 8080} or {@code --port=8080}, a value that
 * does not start with {@code -}); anything else is left to picocli, which reads it the same way or
 * says what is wrong.
 */
final class GatewayArguments {

    private GatewayArguments() {
    }

    static Optional<GatewayCommand> read(String[] args) {
        if (args.length < 3 || !args[0].equals("gateway")) {
            return Optional.empty();
        }
        GatewayCommand gateway = new GatewayCommand();
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            String name = eq > 0 ? arg.substring(0, eq) : arg;
            String value;
            if (eq > 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.length && !args[i + 1].startsWith("-")) {
                value = args[++i];
            } else {
                return Optional.empty();
            }
            if (!seen.add(name) || !give(gateway, name, value)) {
                return Optional.empty();
            }
        }
        return gateway.config == null ? Optional.empty() : Optional.of(gateway);
    }

    /** Sets the option as picocli would; false for an option not read here, or a value it might read otherwise. */
    private static boolean give(GatewayCommand gateway, String name, String value) {
        try {
            switch (name) {
                case GatewayCommand.CONFIG -> gateway.config = Path.of(value);
                case DataDirOption.NAME -> gateway.serve.dataDir.dataDir = Path.of(value);
                case GatewayCommand.PORT -> {
                    // Only the plain decimal form, which every reading of an int agrees on.
                    int port = Integer.parseInt(value);
                    if (!value.equals(String.valueOf(port))) {
                        return false;
                    }
                    gateway.port = port;
                }
                default -> {
                    return false;
                }
            }
            return true;
        } catch (NumberFormatException | InvalidPathException e) {
            return false;
        }
    }
}
