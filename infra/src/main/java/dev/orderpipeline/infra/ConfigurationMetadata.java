package dev.orderpipeline.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code orderpipeline.*} properties an app's configuration metadata describes (each jar's
 * {@code META-INF/spring-configuration-metadata.json}, written by Boot's configuration processor from the properties'
 * Javadoc), and the names its configuration files and the docs use, so that a test can require every name used to
 * be described: what an IDE completes and explains.
 */
public final class ConfigurationMetadata {

    private static final String METADATA = "META-INF/spring-configuration-metadata.json";

    private static final String PREFIX = "orderpipeline.";

    /** A property named in text: not the tail of a package name, nor a pattern ({@code max-json-*}). */
    private static final Pattern NAMED = Pattern.compile("(?<![\\w.-])orderpipeline(?:\\.[a-z][a-z0-9-]*)+(?![\\w*-])");

    private final Map<String, String> descriptions;

    private final Set<String> groups;

    private ConfigurationMetadata(Map<String, String> descriptions, Set<String> groups) {
        this.descriptions = descriptions;
        this.groups = groups;
    }

    /** The metadata of every jar and class folder on the class path, the app's own and its modules'. */
    public static ConfigurationMetadata onClassPath(ClassLoader classLoader) {
        var descriptions = new TreeMap<String, String>();
        var groups = new TreeSet<String>();
        var mapper = JsonMapper.shared();
        try {
            for (var url : Collections.list(classLoader.getResources(METADATA))) {
                JsonNode metadata;
                try (InputStream in = url.openStream()) {
                    metadata = mapper.readTree(in);
                }
                metadata.path("groups")
                        .forEach(group -> groups.add(group.path("name").asString()));
                metadata.path("properties")
                        .forEach(property -> descriptions.put(
                                property.path("name").asString(),
                                property.path("description").asString("")));
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        descriptions.keySet().removeIf(name -> !name.startsWith(PREFIX));
        groups.removeIf(name -> !name.startsWith(PREFIX));
        return new ConfigurationMetadata(descriptions, groups);
    }

    /** Every {@code orderpipeline.*} property described, by name. */
    public Set<String> described() {
        var described = new TreeSet<String>();
        descriptions.forEach((name, description) -> {
            if (!description.isBlank()) {
                described.add(name);
            }
        });
        return described;
    }

    /**
     * The {@code orderpipeline.*} names that the module's {@code application*.yml} set (as keys) or mention (in
     * comments), and that the README and {@code docs/*.md} mention, as far as they belong to one of the groups of
     * this metadata: a name of another app's group is that app's to describe.
     */
    public Set<String> namedIn(Path resources, Path repository) {
        var named = new TreeSet<String>();
        try (var files = Files.list(resources);
                var docs = Files.list(repository.resolve("docs"))) {
            for (var file : files.filter(file -> file.getFileName().toString().matches("application.*\\.ya?ml"))
                    .toList()) {
                var text = Files.readString(file);
                mentions(text, named);
                for (var document : new Yaml().loadAll(text)) {
                    keys("", document, named);
                }
            }
            for (var doc : Stream.concat(
                            Stream.of(repository.resolve("README.md")),
                            docs.filter(file -> file.toString().endsWith(".md")))
                    .toList()) {
                mentions(Files.readString(doc), named);
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        named.removeIf(name -> !name.startsWith(PREFIX) || !groups.contains(name.substring(0, name.lastIndexOf('.'))));
        return named;
    }

    private static void mentions(String text, Collection<String> names) {
        NAMED.matcher(text).results().forEach(match -> names.add(match.group()));
    }

    private static void keys(String prefix, Object node, Collection<String> names) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> keys(prefix + key + ".", value, names));
        } else if (!prefix.isEmpty()) {
            names.add(prefix.substring(0, prefix.length() - 1));
        }
    }
}
