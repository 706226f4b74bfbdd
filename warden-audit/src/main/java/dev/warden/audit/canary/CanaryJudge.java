package dev.warden.audit.canary;

import dev.warden.audit.canary.Signatures.Signature;
import dev.warden.audit.canary.Texts.Text;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Reads what each hostile probe provoked. Confirmed: a shell canary's token back assembled (in the
 * answer or on stderr), {@code /etc/passwd}'s first line, an OS file error naming a path the server
 * resolved outside the folder it says it serves, the loopback listener seeing a URL canary's
 * request, a database syntax error for an SQL value or an always-true condition that changes the
 * result where an always-false one does not. Weaker: a shell's own error text for any
 * hostile value, reported only where no canary confirmed the same for the tool. Every signature
 * counts only if the tool's baseline answer lacks it.
 */
public final class CanaryJudge implements AutoCloseable {

    private static final int MAX_SENT = 2_000;
    private static final String PASSWD = "/etc/passwd";

    private record Sent(Optional<String> tool, String probe, Canary canary) {
    }

    private final LoopbackListener listener;
    private String baselineTool = "";
    private final Set<String> baselineSignatures = new HashSet<>();
    private final List<String> baselineBases = new ArrayList<>();
    private boolean baselinePasswd;
    /** The baseline's answer, what the caller sent taken out, for the boolean differential. */
    private Optional<String> baselineAnswer = Optional.empty();
    private String pendingPair = "";
    private Optional<String> pendingTrue = Optional.empty();
    private final List<Sent> sent = new ArrayList<>();
    private final Map<String, Verdict> weak = new LinkedHashMap<>();
    private final Set<String> confirmed = new HashSet<>();
    /** The tools that run their caller's commands or SQL by design, and those already noted so. */
    private final Set<String> commandTools = new HashSet<>();
    private final Set<String> sqlTools = new HashSet<>();
    private final Set<String> noted = new HashSet<>();
    private boolean baselineSql;

    public CanaryJudge(LoopbackListener listener) {
        this.listener = listener;
    }

    /**
     * The tools as listed: those whose name, description or schema says they run a command or take
     * SQL ({@link ValueShapes}) run what their caller writes by design, and a canary that ran there
     * is a capability note, not an injection.
     */
    public void tools(List<JsonNode> definitions) {
        for (JsonNode tool : definitions) {
            String name = tool.path("name").asString("");
            if (ValueShapes.runsCommands(tool)) {
                commandTools.add(name);
            }
            if (ValueShapes.runsSql(tool)) {
                sqlTools.add(name);
            }
        }
    }

    /** The answer to a tool's valid call: the signatures it already shows and the folders it names. */
    public void baseline(String tool, JsonNode message, List<String> sent) {
        baselineTool = tool;
        baselineAnswer = Differential.successful(message) ? Optional.of(Differential.normalized(message, sent))
                : Optional.empty();
        baselineSignatures.clear();
        baselineBases.clear();
        baselinePasswd = false;
        baselineSql = false;
        // Only a successful answer says what the tool serves; a failure's path may be anything.
        JsonNode result = message.path("result");
        boolean serves = result.isObject() && !result.path("isError").asBoolean(false);
        for (Text t : Texts.of(message)) {
            for (List<Signature> table : List.of(Signatures.SHELL, Signatures.SQL)) {
                for (Signature s : table) {
                    if (s.in(t.lower())) {
                        baselineSignatures.add(s.name());
                        baselineSql |= table == Signatures.SQL;
                    }
                }
            }
            baselinePasswd |= t.text().contains("root:x:0:0:");
            for (String path : serves ? AbsolutePaths.in(t.text()) : List.<String>of()) {
                if (baselineBases.size() < 32) {
                    baselineBases.add(path);
                }
            }
        }
    }

    /** A probe is about to be sent: its shell and URL canaries are looked for on stderr and by the listener at the end. */
    public void sent(Optional<String> tool, String probe, Optional<Canary> canary) {
        canary.filter(c -> c instanceof Canary.Shell || c instanceof Canary.Url)
                .filter(c -> sent.size() < MAX_SENT)
                .ifPresent(c -> sent.add(new Sent(tool, probe, c)));
    }

    /** The verdicts on one hostile probe's answer (confirmed ones; weaker ones are kept for {@link #finish}). */
    public List<Verdict> answered(Optional<String> tool, String probe, Optional<Canary> canary, JsonNode message,
                                  List<String> sent) {
        boolean sameTool = tool.orElse("").equals(baselineTool);
        Set<String> before = sameTool ? baselineSignatures : Set.of();
        List<Verdict> out = new ArrayList<>();
        if (canary.isPresent() && canary.get() instanceof Canary.SqlBoolean b) {
            differential(b, sameTool, message, sent, tool, probe).ifPresent(out::add);
        }
        for (Text t : Texts.of(message)) {
            canary.flatMap(c -> confirm(c, t, sameTool, before, tool, probe)).ifPresent(out::add);
            Optional<Signature> shellError = Signatures.first(Signatures.SHELL, t.lower(), before);
            if (shellError.isPresent() && commandTools.contains(tool.orElse(""))) {
                out.add(new Verdict(Verdict.Kind.COMMAND_INJECTION, tool, probe, t.pointer(), "",
                        "shell-error", shellError.get().name()));
            } else {
                shellError.ifPresent(s -> weak.putIfAbsent(tool.orElse("") + "\u0000shell", new Verdict(
                        Verdict.Kind.COMMAND_INJECTION, tool, probe, t.pointer(),
                        "A shell's own error (" + s.name() + ") answered this value and not the baseline: "
                                + "the value reached a shell (a weaker signal than a canary's echo)",
                        "shell-error", s.name())));
            }
        }
        boolean sqlByDesign = sameTool && baselineSql;
        List<Verdict> judged = new ArrayList<>();
        out.forEach(v -> byDesign(v, sqlByDesign).ifPresent(judged::add));
        judged.forEach(v -> confirmed.add(v.tool().orElse("") + "\u0000" + v.kind()));
        return judged;
    }

    /**
     * {@code v} as the tool's design says it: a command that ran in a tool that runs commands, or
     * SQL that broke in a tool that takes SQL (its schema says so, or its baseline answer already
     * shows a database's error), is the capability note, once per tool and kind; else {@code v}.
     */
    private Optional<Verdict> byDesign(Verdict v, boolean sqlByDesign) {
        String tool = v.tool().orElse("");
        boolean command = v.kind() == Verdict.Kind.COMMAND_INJECTION && commandTools.contains(tool);
        boolean sql = v.kind() == Verdict.Kind.SQL_INJECTION && (sqlByDesign || sqlTools.contains(tool));
        if (!command && !sql) {
            return Optional.of(v);
        }
        if (!noted.add(tool + "\u0000" + v.kind())) {
            return Optional.empty();
        }
        String what = command
                ? "The tool runs the commands its caller writes (its name, description or schema says so): the probe's "
                        + "command ran as the tool is meant to run it. Anyone who can call it can run any command"
                : "The tool runs the SQL its caller writes (its schema says the value is SQL, or its baseline answer "
                        + "already shows a database's error): the probe's SQL was read as SQL, as the tool is meant "
                        + "to. Anyone who can call it can run any statement its database account allows";
        return Optional.of(new Verdict(Verdict.Kind.CALLER_CODE, v.tool(), v.probe(), v.location(), what,
                command ? "caller-command" : "caller-sql", v.evidenceValue()));
    }

    private Optional<Verdict> confirm(Canary canary, Text t, boolean sameTool, Set<String> before,
                                      Optional<String> tool, String probe) {
        return switch (canary) {
            case Canary.Shell shell -> Texts.assembled(t.text(), shell.token())
                    ? Optional.of(shell(shell, tool, probe, t.pointer())) : Optional.empty();
            case Canary.Sql sql -> Signatures.first(Signatures.SQL, t.lower(), before)
                    .map(s -> new Verdict(Verdict.Kind.SQL_INJECTION, tool, probe, t.pointer(),
                            "Confirmed by an SQL canary: " + sql.proves() + " (" + s.name() + ")", "sql-error", s.name()));
            case Canary.Traversal traversal -> traversal(traversal, t, sameTool, tool, probe);
            case Canary.Url url -> Optional.empty(); // the listener's word, read at the end
            case Canary.SqlBoolean b -> Optional.empty(); // judged on the whole answer, see differential
        };
    }

    /**
     * The boolean differential: the always-true answer is kept; the always-false one must read as
     * the baseline (what the caller sent taken out), and the true one otherwise and successful.
     */
    private Optional<Verdict> differential(Canary.SqlBoolean canary, boolean sameTool, JsonNode message,
                                           List<String> sent, Optional<String> tool, String probe) {
        String answer = Differential.normalized(message, sent);
        if (canary.truth()) {
            pendingPair = canary.pair();
            pendingTrue = Differential.successful(message) ? Optional.of(answer) : Optional.empty();
            return Optional.empty();
        }
        boolean confirmed = sameTool && canary.pair().equals(pendingPair) && pendingTrue.isPresent()
                && baselineAnswer.isPresent() && answer.equals(baselineAnswer.get())
                && !pendingTrue.get().equals(answer);
        pendingTrue = Optional.empty();
        return confirmed ? Optional.of(new Verdict(Verdict.Kind.SQL_INJECTION, tool, probe, "/result",
                "Confirmed by an SQL canary: " + canary.proves(), "sql-differential", canary.pair()))
                : Optional.empty();
    }

    private Optional<Verdict> traversal(Canary.Traversal canary, Text t, boolean sameTool, Optional<String> tool,
                                        String probe) {
        if ((t.text().contains("root:x:0:0:") || t.text().contains("root:*:0:0:")) && !(sameTool && baselinePasswd)) {
            return Optional.of(new Verdict(Verdict.Kind.PATH_TRAVERSAL, tool, probe, t.pointer(),
                    "Confirmed by a traversal canary: " + canary.proves() + ": the content of " + PASSWD
                            + " came back (its root entry)", "traversal", PASSWD));
        }
        Optional<Signature> osError = Signatures.first(Signatures.FILE_ERROR, t.lower());
        if (osError.isEmpty()) {
            return Optional.empty(); // a refusal naming the resolved path opened nothing
        }
        List<String> bases = new ArrayList<>(canary.bases());
        if (sameTool) {
            bases.addAll(baselineBases);
        }
        for (String path : AbsolutePaths.in(t.text())) {
            if (!path.endsWith(PASSWD) || bases.isEmpty() || bases.stream().anyMatch(b -> AbsolutePaths.under(path, b))) {
                continue;
            }
            String base = bases.stream().max((a, b) -> Integer.compare(AbsolutePaths.shared(path, a),
                    AbsolutePaths.shared(path, b))).orElseThrow();
            // A folder only the server's answer named (a home directory, say) stays out of the report:
            // every format is published; the description's words are the tool's own public ones.
            String outside = canary.bases().contains(base) ? base + " (named in the tool's description)"
                    : "the folder its baseline answer names";
            return Optional.of(new Verdict(Verdict.Kind.PATH_TRAVERSAL, tool, probe, t.pointer(),
                    "Confirmed by a traversal canary: " + canary.proves() + ": the server's own file error ("
                            + osError.get().name() + ") names a path it resolved outside " + outside + ", normalized",
                    "resolved-path", path));
        }
        return Optional.empty();
    }

    private static Verdict shell(Canary.Shell shell, Optional<String> tool, String probe, String location) {
        return new Verdict(Verdict.Kind.COMMAND_INJECTION, tool, probe, location,
                "Confirmed by a shell canary: " + shell.proves(), "shell-canary", shell.token());
    }

    /**
     * The verdicts only the end can give: URL canaries the listener saw, shell tokens assembled on
     * {@code stderr}, and each tool's weaker shell signal where no canary confirmed it.
     */
    public List<Verdict> finish(List<String> stderr) {
        List<Verdict> out = new ArrayList<>();
        for (Sent s : sent) {
            switch (s.canary()) {
                case Canary.Url url when listener.seen(url.token()) -> out.add(new Verdict(
                        Verdict.Kind.SERVER_SIDE_REQUEST, s.tool(), s.probe(), "listener",
                        "Confirmed by a URL canary: " + url.proves(), "loopback-canary", url.token()));
                case Canary.Shell shell when stderr.stream().anyMatch(line -> Texts.assembled(line, shell.token())) ->
                        byDesign(shell(shell, s.tool(), s.probe(), "stderr"), false).ifPresent(out::add);
                default -> {
                }
            }
        }
        out.forEach(v -> confirmed.add(v.tool().orElse("") + "\u0000" + v.kind()));
        weak.values().stream().filter(v -> !confirmed.contains(v.tool().orElse("") + "\u0000" + v.kind()))
                .forEach(out::add);
        return out;
    }

    @Override
    public void close() {
        listener.close();
    }
}
