package dev.warden.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * warden-bom against the reactor: it lists exactly the modules that are published (those that do
 * not set {@code maven.deploy.skip}), at the parent's version, so a new module cannot be left out
 * of it. A module that is published ships its sources and javadoc jars; one that is not builds
 * neither.
 */
class BomTest {

    private static final Path ROOT = root();

    @Test
    void theBomListsEveryPublishedModuleAndNothingElse() throws Exception {
        Element parent = read(ROOT.resolve("pom.xml"));
        Element bom = read(ROOT.resolve("warden-bom/pom.xml"));
        assertThat(child(bom, "parent")).as("warden-bom inherits nothing: importing it pins only dev.warden")
                .isEmpty();
        assertThat(text(bom, "version")).as("warden-bom's version").isEqualTo(text(parent, "version"));
        assertThat(text(bom, "packaging")).isEqualTo("pom");

        List<String> modules = children(child(parent, "modules").orElseThrow(), "module").stream()
                .map(Node::getTextContent).map(String::trim).toList();
        assertThat(modules).as("the reactor builds and installs warden-bom").contains("warden-bom");
        TreeSet<String> published = new TreeSet<>();
        for (String module : modules) {
            if (!module.equals("warden-bom") && !"true".equals(properties(module).get("maven.deploy.skip"))) {
                published.add(module);
            }
        }

        TreeSet<String> listed = new TreeSet<>();
        Element managed = child(child(bom, "dependencyManagement").orElseThrow(), "dependencies").orElseThrow();
        for (Element dependency : children(managed, "dependency")) {
            assertThat(text(dependency, "groupId")).isEqualTo("dev.warden");
            assertThat(text(dependency, "version")).isEqualTo("${project.version}");
            assertThat(child(dependency, "scope")).as("a BOM entry leaves the scope to its user").isEmpty();
            listed.add(text(dependency, "artifactId"));
        }
        assertThat(listed).as("warden-bom's entries = the reactor's published modules (maven.deploy.skip "
                + "unset); add the new module to warden-bom/pom.xml, or skip its deployment").isEqualTo(published);
    }

    @Test
    void aPublishedModuleShipsSourcesAndJavadocAndAnotherBuildsNeither() throws Exception {
        Element parent = read(ROOT.resolve("pom.xml"));
        for (Node node : children(child(parent, "modules").orElseThrow(), "module")) {
            String module = node.getTextContent().trim();
            if (module.equals("warden-bom")) {
                continue;
            }
            Map<String, String> properties = properties(module);
            boolean published = !"true".equals(properties.get("maven.deploy.skip"));
            for (String skip : List.of("maven.javadoc.skip", "maven.source.skip")) {
                assertThat("true".equals(properties.get(skip))).as("%s sets %s", module, skip).isEqualTo(!published);
            }
            if ("true".equals(properties.get("maven.install.skip"))) {
                assertThat(published).as("%s is not installed, so it cannot be published", module).isFalse();
            }
        }
    }

    private static Map<String, String> properties(String module) throws Exception {
        Map<String, String> properties = new TreeMap<>();
        Optional<Element> block = child(read(ROOT.resolve(module).resolve("pom.xml")), "properties");
        block.ifPresent(p -> elements(p).forEach(e -> properties.put(e.getTagName(), e.getTextContent().trim())));
        return properties;
    }

    private static Element read(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
    }

    private static String text(Element element, String name) {
        return child(element, name).map(e -> e.getTextContent().trim())
                .orElseThrow(() -> new AssertionError("no <" + name + "> in <" + element.getTagName() + ">"));
    }

    private static Optional<Element> child(Element element, String name) {
        return children(element, name).stream().findFirst();
    }

    private static List<Element> children(Element element, String name) {
        return elements(element).stream().filter(e -> e.getTagName().equals(name)).toList();
    }

    private static List<Element> elements(Element element) {
        List<Element> found = new ArrayList<>();
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                found.add(e);
            }
        }
        return found;
    }

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("warden-bom/pom.xml"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no warden-bom/pom.xml above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
