package dev.warden.gateway.internal.access;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's authorization rules ({@code access.rules} in warden.yaml), compiled once: CEL
 * expressions over {@code caller} (who is calling) and {@code mcp} (the tool, resource or prompt),
 * each type-checked to a boolean when the configuration loads. An item is allowed iff at least one
 * rule is true; a rule that fails at run time (a missing key, a type error) or yields anything but
 * true counts as false, so a mistake denies rather than allows. Thread-safe: CEL's programs are
 * immutable.
 */
public final class AccessRules {

    /**
     * Bounds on what one rule may cost, whoever wrote the token it reads: its length, the depth of
     * its nesting, and the iterations of its comprehensions ({@code exists}, {@code all}).
     */
    private static final CelOptions OPTIONS = CelOptions.current()
            .maxExpressionCodePointSize(4096)
            .maxParseRecursionDepth(32)
            .comprehensionMaxIterations(1000)
            .enableHeterogeneousNumericComparisons(true)
            .build();

    private static final Cel CEL = CelFactory.standardCelBuilder()
            .setOptions(OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar("caller", MapType.create(SimpleType.STRING, SimpleType.DYN))
            .addVar("mcp", MapType.create(SimpleType.STRING, SimpleType.DYN))
            .setResultType(SimpleType.BOOL)
            .build();

    private final List<String> sources;
    private final List<CelRuntime.Program> programs;

    private AccessRules(List<String> sources, List<CelRuntime.Program> programs) {
        this.sources = sources;
        this.programs = programs;
    }

    /**
     * Compiles every rule.
     *
     * @throws IllegalArgumentException naming the first rule that does not compile or is not a
     *     boolean ({@code rules[2]: ...}), with CEL's own message (for the operator)
     */
    public static AccessRules compile(List<String> rules) {
        List<CelRuntime.Program> programs = new ArrayList<>(rules.size());
        for (int i = 0; i < rules.size(); i++) {
            String rule = rules.get(i);
            if (rule == null || rule.isBlank()) {
                throw new IllegalArgumentException("rules[" + i + "]: expected a CEL expression");
            }
            try {
                programs.add(CEL.createProgram(CEL.compile(rule).getAst()));
            } catch (CelValidationException | CelEvaluationException e) {
                throw new IllegalArgumentException("rules[" + i + "]: " + e.getMessage().strip());
            }
        }
        return new AccessRules(List.copyOf(rules), List.copyOf(programs));
    }

    /** The rules as the operator wrote them. */
    public List<String> sources() {
        return sources;
    }

    /**
     * Whether the item is allowed to the caller: the first rule that is true allows it.
     *
     * @param caller the {@code caller} variable (see {@link Variables#caller})
     * @param mcp the {@code mcp} variable (see {@link Variables#tool} and the others)
     * @param failed told of each rule that failed at run time: its index and CEL's message, for the operator
     */
    public boolean allows(Map<String, Object> caller, Map<String, Object> mcp, RuleFailure failed) {
        Map<String, Object> vars = Map.of("caller", caller, "mcp", mcp);
        for (int i = 0; i < programs.size(); i++) {
            Optional<Object> result;
            try {
                result = Optional.ofNullable(programs.get(i).eval(vars));
            } catch (CelEvaluationException | RuntimeException e) {
                failed.failed(i, String.valueOf(e.getMessage()));
                continue;
            }
            if (result.filter(Boolean.TRUE::equals).isPresent()) {
                return true;
            }
        }
        return false;
    }

    /** A rule that failed at run time: it counted as false. */
    @FunctionalInterface
    public interface RuleFailure {
        void failed(int rule, String message);
    }
}
