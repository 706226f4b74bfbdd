package dev.warden.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The repository's Markdown as DocSamplesTest reads it: README.md and docs/**.md, their fenced
 * blocks (with the sample each quotes, named by a {@code <!-- sample: PATH#REGION -->} line just
 * above the fence) and their inline code spans outside the fences.
 */
public final class Docs {

    /** A fenced block: its file and first line, its language (may be empty) and its text. */
    public record Block(Path file, int line, String language, String text, Optional<String> sample) {
        public String where() {
            return file + ":" + line;
        }
    }

    /** An inline code span outside the fences. */
    public record Span(Path file, int line, String text) {
        public String where() {
            return file + ":" + line;
        }
    }

    private static final Pattern FENCE = Pattern.compile("^(\\s*)```(\\S*)\\s*$");
    private static final Pattern SAMPLE = Pattern.compile("^<!-- sample: (\\S+) -->$");
    private static final Pattern SPAN = Pattern.compile("``(.+?)``|`([^`]+)`");

    private static final Pattern MARKER = Pattern.compile("(// |<!-- |# )(doc|end):\\S+( -->)?");

    private final Path root;
    private final List<Block> blocks = new ArrayList<>();
    private final List<Span> spans = new ArrayList<>();

    private Docs(Path root) {
        this.root = root;
    }

    /** The repository whose docs these are: the first directory upwards holding README.md and docs/. */
    public static Path repository() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs")))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no README.md with docs/ above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    public static Docs read(Path root) {
        Docs docs = new Docs(root);
        for (Path file : files(root)) {
            docs.parse(file);
        }
        return docs;
    }

    public Path root() {
        return root;
    }

    public List<Block> blocks() {
        return blocks;
    }

    public List<Block> blocks(String language) {
        return blocks.stream().filter(b -> b.language().equals(language)).toList();
    }

    public List<Span> spans() {
        return spans;
    }

    /**
     * The text a block quotes: each region its marker names ({@code PATH#a,b}), the lines between
     * {@code doc:NAME} and {@code end:NAME} (in a {@code //}, {@code <!-- -->} or, in a properties
     * file, {@code #} comment line of their own), without the indentation they share, one after the other.
     */
    public String quoted(Block block) {
        String marker = block.sample().orElseThrow();
        int hash = marker.indexOf('#');
        if (hash < 0) {
            throw new IllegalArgumentException(block.where() + ": a sample is PATH#REGION, not " + marker);
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(root.resolve(marker.substring(0, hash)));
        } catch (IOException e) {
            throw new UncheckedIOException(block.where() + ": cannot read the sample " + marker, e);
        }
        StringBuilder text = new StringBuilder();
        for (String region : marker.substring(hash + 1).split(",")) {
            text.append(region(lines, region, block.where() + ": " + marker));
        }
        return text.toString();
    }

    private static String region(List<String> lines, String name, String where) {
        int start = -1;
        int end = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.equals("// doc:" + name) || line.equals("<!-- doc:" + name + " -->")
                    || line.equals("# doc:" + name)) {
                start = i + 1;
            } else if (start >= 0 && (line.equals("// end:" + name) || line.equals("<!-- end:" + name + " -->")
                    || line.equals("# end:" + name))) {
                end = i;
                break;
            }
        }
        if (start < 0 || end < 0) {
            throw new IllegalArgumentException(where + ": no region doc:" + name + " … end:" + name);
        }
        List<String> region = lines.subList(start, end);
        int indent = region.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder text = new StringBuilder();
        for (String line : region) {
            if (MARKER.matcher(line.trim()).matches()) {
                continue;                       // a region inside this one
            }
            text.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        }
        return text.toString();
    }

    private static List<Path> files(Path root) {
        List<Path> files = new ArrayList<>();
        files.add(Path.of("README.md"));
        try (Stream<Path> walk = Files.walk(root.resolve("docs"))) {
            walk.filter(p -> p.toString().endsWith(".md")).sorted()
                    .forEach(p -> files.add(root.relativize(p)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private void parse(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(root.resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int i = 0; i < lines.size(); i++) {
            Matcher fence = FENCE.matcher(lines.get(i));
            if (fence.matches()) {
                int start = i;
                StringBuilder text = new StringBuilder();
                String indent = fence.group(1);
                for (i++; i < lines.size() && !lines.get(i).trim().equals("```"); i++) {
                    String line = lines.get(i);
                    text.append(line.startsWith(indent) ? line.substring(indent.length()) : line).append('\n');
                }
                Optional<String> sample = Optional.empty();
                if (start > 0) {
                    Matcher marker = SAMPLE.matcher(lines.get(start - 1).trim());
                    if (marker.matches()) {
                        sample = Optional.of(marker.group(1));
                    }
                }
                blocks.add(new Block(file, start + 1, fence.group(2), text.toString(), sample));
                continue;
            }
            Matcher span = SPAN.matcher(lines.get(i));
            while (span.find()) {
                String text = span.group(1) != null ? span.group(1).trim() : span.group(2);
                spans.add(new Span(file, i + 1, text));
            }
        }
    }
}
