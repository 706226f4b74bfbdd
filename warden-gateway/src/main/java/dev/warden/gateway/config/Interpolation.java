package dev.warden.gateway.config;

import java.util.function.Function;

/**
 * {@code ${NAME}} references in the configuration's strings, resolved from the environment: how
 * credentials stay out of the file. A reference to a variable that is not set is an error naming
 * the key, never a silent empty string.
 */
final class Interpolation {

    private Interpolation() {
    }

    /** {@code ${NAME}} replaced by the environment variable; one that is not set is an error naming the key. */
    static String interpolate(String value, String path, Function<String, String> env) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < value.length()) {
            int open = value.indexOf("${", i);
            if (open < 0) {
                out.append(value, i, value.length());
                break;
            }
            int close = value.indexOf('}', open + 2);
            if (close < 0) {
                throw new ConfigException(path + ": an unterminated ${...} reference");
            }
            String name = value.substring(open + 2, close);
            String resolved = name.isEmpty() ? null : env.apply(name);
            if (resolved == null) {
                throw new ConfigException(path + ": the environment variable " + name + " is not set");
            }
            out.append(value, i, open).append(resolved);
            i = close + 1;
        }
        return out.toString();
    }
}
