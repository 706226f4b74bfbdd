package dev.warden.core.sanitize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.core.sanitize.detection.CredentialFinding;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs the redactor over whatever real software a machine has (node_modules, /usr/share/doc,
 * Python wheels, jars), given as {@code -Dwarden.redactor.corpus=dir1:dir2:…}; skipped without it.
 * Machines differ, so it asserts what holds on any text (outside the findings, every byte is
 * kept) and writes every finding to {@code target/credential-redactor-corpus.txt} for a person to
 * judge; the committed excerpts in {@link CredentialRedactorCorpusTest} are the gate.
 *
 * <pre>
 * ./mvnw -pl warden-core test -Dtest=CredentialRedactorMachineCorpusTest \
 *     -Dwarden.redactor.corpus=/usr/lib/node_modules:/usr/share/doc
 * </pre>
 */
class CredentialRedactorMachineCorpusTest {

    private static final long MAX_FILE = 8L << 20;
    private static final List<String> BINARY = List.of(".so", ".pyc", ".png", ".jpg", ".jpeg", ".gif", ".ico",
            ".woff", ".woff2", ".ttf", ".otf", ".eot", ".class", ".node", ".wasm", ".pdf", ".mo", ".bin", ".dll",
            ".exe", ".dylib", ".a", ".o", ".zst", ".xz", ".bz2", ".pt", ".onnx", ".npz", ".npy", ".pkl", ".h5");

    private final CredentialRedactor redactor = CredentialRedactor.ofDefaults();
    private long files;
    private long chars;
    private final Map<String, Integer> byKind = new TreeMap<>();
    private final List<String> report = new ArrayList<>();

    @Test
    void keepsEveryByteOutsideWhatItFindsInRealSoftware() throws IOException {
        String roots = System.getProperty("warden.redactor.corpus", "");
        Assumptions.assumeFalse(roots.isBlank(), "set -Dwarden.redactor.corpus to scan a machine's files");
        for (String root : roots.split(":")) {
            Path path = Paths.get(root);
            if (Files.exists(path)) {
                try (Stream<Path> walk = Files.walk(path)) {
                    walk.filter(Files::isRegularFile).forEach(this::scanFile);
                }
            }
        }
        report.add(0, String.format(Locale.ROOT, "%d texts, %d characters, %d findings %s", files, chars,
                byKind.values().stream().mapToInt(Integer::intValue).sum(), byKind));
        Path out = Paths.get("target", "credential-redactor-corpus.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report, StandardCharsets.UTF_8);
        System.out.println(report.get(0) + " (details in " + out.toAbsolutePath() + ")");
        assertThat(files).isPositive();
    }

    private void scanFile(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        try {
            if (Files.size(file) > 512L << 20) {
                return;
            }
            if (name.endsWith(".whl") || name.endsWith(".jar") || name.endsWith(".zip")) {
                try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(file))) {
                    for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                        if (!entry.isDirectory() && !isBinaryName(entry.getName().toLowerCase(Locale.ROOT))) {
                            scanBytes(file + "!/" + entry.getName(), readCapped(zip));
                        }
                    }
                }
            } else if (name.endsWith(".gz") && !name.endsWith(".tar.gz")) {
                try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
                    scanBytes(file.toString(), readCapped(in));
                }
            } else if (!isBinaryName(name) && Files.size(file) <= MAX_FILE) {
                scanBytes(file.toString(), Files.readAllBytes(file));
            }
        } catch (IOException | IllegalArgumentException unreadable) {
            report.add("skipped " + file + ": " + unreadable);
        }
    }

    private static boolean isBinaryName(String name) {
        return BINARY.stream().anyMatch(name::endsWith) || name.endsWith(".tar.gz") || name.endsWith(".tgz");
    }

    private static byte[] readCapped(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[65536];
        for (int r; (r = in.read(buffer)) > 0; ) {
            if (out.size() + r > MAX_FILE) {
                return new byte[0];
            }
            out.write(buffer, 0, r);
        }
        return out.toByteArray();
    }

    private void scanBytes(String name, byte[] bytes) {
        for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
            if (bytes[i] == 0) {
                return; // binary
            }
        }
        if (bytes.length == 0) {
            return;
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        files++;
        chars += text.length();
        Redaction redaction = redactor.redact(text);
        if (!redaction.changed()) {
            assertThat(redaction.text()).isSameAs(text);
            return;
        }
        assertThat(redaction.text()).as(name).isEqualTo(Spans.replaced(text, redaction.findings()));
        for (CredentialFinding f : redaction.findings()) {
            byKind.merge(f.kind().label(), 1, Integer::sum);
            String value = text.substring(f.offset(), f.end());
            int lineStart = text.lastIndexOf('\n', f.offset()) + 1;
            int lineEnd = text.indexOf('\n', f.end());
            String line = text.substring(lineStart, lineEnd < 0 ? text.length() : Math.min(lineEnd, f.end() + 80));
            report.add(f.kind().label() + "\t" + name + "\t" + abbreviate(value) + "\t| "
                    + abbreviate(line.strip()));
        }
    }

    private static String abbreviate(String s) {
        String one = s.replace('\n', '⏎');
        return one.length() <= 160 ? one : one.substring(0, 157) + "…";
    }
}
