package dev.warden.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The usual {@code wrap [options] -- COMMAND…} read by {@link WrapOption}'s table alone, before
 * picocli: its classes (Java 5 class files) stay out of the JVM's start-up cache, and loading them
 * cost {@code warden wrap}'s cold start more than reading the table does (the figures are in
 * issue 32's report). Only forms picocli reads the same way are taken ({@code --name X},
 * {@code --name=X}, each option once but the repeatable one, a flag without a value); anything
 * else is left to picocli ({@link WrapSpec}), which reads it the same way or says what is wrong.
 */
final class WrapArguments {

    private WrapArguments() {
    }

    static Optional<WrapCommand> read(String[] args) {
        int separator = Arrays.asList(args).indexOf("--");
        if (args.length < 3 || !args[0].equals("wrap") || separator < 1 || separator == args.length - 1) {
            return Optional.empty();
        }
        WrapCommand wrap = new WrapCommand();
        Set<WrapOption> seen = EnumSet.noneOf(WrapOption.class);
        List<String> repeated = new ArrayList<>();
        for (int i = 1; i < separator; i++) {
            String arg = args[i];
            int eq = arg.indexOf('=');
            Optional<WrapOption> named = WrapOption.named(eq > 0 ? arg.substring(0, eq) : arg);
            if (named.isEmpty() || !seen.add(named.get()) && named.get().kind != WrapOption.Kind.REPEATED) {
                return Optional.empty();
            }
            WrapOption option = named.get();
            if (!option.takesValue()) {
                if (eq > 0) {
                    return Optional.empty(); // --fail-closed=false and the like: picocli's to read
                }
                wrap.give(option, true);
                continue;
            }
            String value;
            if (eq > 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < separator && !args[i + 1].startsWith("-")) {
                value = args[++i];
            } else {
                return Optional.empty(); // no value, or an option where it belongs: picocli explains
            }
            Optional<Object> read = value(option.kind, value);
            if (read.isEmpty()) {
                return Optional.empty();
            }
            if (option.kind == WrapOption.Kind.REPEATED) {
                repeated.add(value);
                wrap.give(option, List.copyOf(repeated));
            } else {
                wrap.give(option, read.get());
            }
        }
        wrap.command = List.copyOf(Arrays.asList(args).subList(separator + 1, args.length));
        return Optional.of(wrap);
    }

    /** The value as picocli converts it; empty where it might not, or would refuse it. */
    private static Optional<Object> value(WrapOption.Kind kind, String value) {
        try {
            return switch (kind) {
                case TEXT, REPEATED -> Optional.of(value);
                case PATH -> Optional.of(Path.of(value));
                // Only the plain decimal form, which every reading of an int agrees on.
                case INT -> value.equals(String.valueOf(Integer.parseInt(value)))
                        ? Optional.of(Integer.parseInt(value)) : Optional.empty();
                case FLAG -> Optional.empty();
            };
        } catch (NumberFormatException | InvalidPathException e) {
            return Optional.empty();
        }
    }
}
