package dev.warden.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.StringWriter;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user's module reads through {@code requires dev.warden.server}: Warden's server API and
 * what it exposes (core, schema, Jackson), not JDBC. The server maps SQLSTATEs internally, so
 * {@code java.sql} is its own business; a user's code that uses JDBC says so itself.
 * (javac's -Xlint:exports, on with -Werror, keeps java.sql out of every exported signature.)
 */
class ServerModuleReadsTest {

    @TempDir
    Path dir;

    @Test
    void aServerAuthorsModuleDoesNotReadJavaSqlThroughWarden() throws Exception {
        Compilation without = compile("app.nojdbc", "", "java.sql.SQLException failure;");
        assertThat(without.ok()).as("a module that requires only dev.warden.server uses JDBC:%n%s", without.log())
                .isFalse();
        assertThat(without.log()).contains("package java.sql is not visible");
    }

    @Test
    void itReadsTheServerApiAndUsesJdbcWhenItSaysSo() throws Exception {
        Compilation with = compile("app.jdbc", "requires java.sql;",
                "java.sql.SQLException failure; tools.jackson.databind.node.ObjectNode schema;");
        assertThat(with.ok()).as("%s", with.log()).isTrue();
    }

    private record Compilation(boolean ok, String log) {
    }

    private Compilation compile(String module, String requires, String fields) throws Exception {
        Path sources = dir.resolve(module);
        Files.createDirectories(sources.resolve("app"));
        Path descriptor = sources.resolve("module-info.java");
        Files.writeString(descriptor, "module " + module + " { requires dev.warden.server; " + requires + " }\n");
        Path app = sources.resolve("app/App.java");
        Files.writeString(app, """
                package app;
                public class App {
                    dev.warden.server.McpServer server;
                    %s
                }
                """.formatted(fields));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter log = new StringWriter();
        List<String> options = List.of("--release", "21", "-d", dir.resolve(module + "-classes").toString(),
                "--module-path", modulePath());
        boolean ok = javac.getTask(log, null, null, options, null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(descriptor, app)).call();
        return new Compilation(ok, log.toString());
    }

    /**
     * dev.warden.server and the modules it requires, found on this test's class path (the whole
     * class path would not do as a module path: CEL's jars split packages).
     */
    private static String modulePath() {
        List<Path> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (!path.endsWith("test-classes") && Files.exists(path)) {
                entries.add(path);
            }
        }
        Map<String, ModuleReference> modules = new HashMap<>();
        for (Path entry : entries) {
            try {
                ModuleFinder.of(entry).findAll().forEach(m -> modules.putIfAbsent(m.descriptor().name(), m));
            } catch (FindException e) {
                // no module name can be derived from it; none of the server's requirements is such a jar
            }
        }
        Set<String> needed = new LinkedHashSet<>();
        Deque<String> next = new ArrayDeque<>(List.of("dev.warden.server"));
        while (!next.isEmpty()) {
            String name = next.pop();
            if (ModuleFinder.ofSystem().find(name).isPresent() || !needed.add(name)) {
                continue;
            }
            ModuleReference module = modules.get(name);
            assertThat(module).as("module %s on the class path", name).isNotNull();
            module.descriptor().requires().stream()
                    .filter(r -> !r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC))
                    .forEach(r -> next.push(r.name()));
        }
        return needed.stream().map(name -> Path.of(modules.get(name).location().orElseThrow()).toString())
                .collect(Collectors.joining(File.pathSeparator));
    }
}
