package dev.warden.schema;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;

/**
 * Runs the schema {@code pattern} keywords with RE2/J: argument values are untrusted text, and
 * RE2 matches in linear time where java.util.regex can backtrack for ever. Patterns RE2 cannot
 * express (look-around, back-references) fail when the schema is compiled, naming the pattern,
 * rather than silently falling back to a backtracking engine.
 */
final class Re2jRegularExpressionFactory implements RegularExpressionFactory {

    static final Re2jRegularExpressionFactory INSTANCE = new Re2jRegularExpressionFactory();

    private Re2jRegularExpressionFactory() {
    }

    @Override
    public RegularExpression getRegularExpression(String regex) {
        Pattern pattern;
        try {
            pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("schema pattern \"" + regex
                    + "\" is not supported by the linear-time engine (RE2): " + e.getDescription(), e);
        }
        // JSON Schema patterns are unanchored: "find", not "matches".
        return value -> pattern.matcher(value).find();
    }
}
