package dev.orderpipeline.lab.report;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * A report's settings record as the parameters its Markdown shows: derived from the record as report.json
 * holds it, so a new setting shows without anyone listing it. Nested records read as {@code ceiling.commands},
 * lists as {@code 1,3,6}, durations as {@code 250 ms} or {@code 20 s}, a setting left unset as {@code not set}.
 */
public final class Parameters {

    static final String NOT_SET = "not set";

    private Parameters() {}

    public static Map<String, String> of(Record settings) {
        var parameters = new LinkedHashMap<String, String>();
        flatten("", ReportWriter.JSON.valueToTree(settings), parameters);
        return parameters;
    }

    private static void flatten(String name, JsonNode node, Map<String, String> parameters) {
        if (!node.isObject()) {
            parameters.put(name, cell(node));
            return;
        }
        for (var property : node.properties()) {
            flatten(
                    name.isEmpty() ? property.getKey() : name + "." + property.getKey(),
                    property.getValue(),
                    parameters);
        }
    }

    private static String cell(JsonNode node) {
        if (node.isNull() || node.isMissingNode()) {
            return NOT_SET;
        }
        if (node.isArray()) {
            return node.valueStream().map(Parameters::cell).collect(Collectors.joining(","));
        }
        if (node.isObject()) {
            return node.toString();
        }
        var text = node.asString();
        return text.startsWith("PT") ? duration(text) : text;
    }

    /** {@code PT0.25S} as {@code 250 ms}, {@code PT10M} as {@code 600 s}. */
    private static String duration(String text) {
        try {
            var duration = Duration.parse(text);
            return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
        } catch (DateTimeParseException ex) {
            return text;
        }
    }
}
