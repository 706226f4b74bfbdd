// Runs networknt json-schema-validator (the version warden-schema uses) on one bad input and prints
// what it emits, so the extraction tests read its real output. Run by scripts/capture-error-shapes:
//   java -cp <warden-schema's runtime classpath> CaptureNetworknt.java <out-dir>
// Input: name missing, email "not-an-email", age -1, address.city missing.

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.OutputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.output.OutputUnit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

public class CaptureNetworknt {
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        JsonMapper mapper = JsonMapper.builder().build();
        String schemaText = """
                {"type":"object","required":["name","email","address"],
                 "properties":{"name":{"type":"string"},"email":{"type":"string","format":"email"},
                   "age":{"type":"integer","minimum":0},
                   "address":{"type":"object","required":["city"],"properties":{"city":{"type":"string"}}}}}
                """;
        String input = "{\"email\":\"not-an-email\",\"age\":-1,\"address\":{}}";
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
        Schema schema = registry.getSchema(schemaText, InputFormat.JSON);

        // What a server that reports networknt's errors as they are sends: each Error's toString()
        // ("/email: does not match ..."), its instance location and message.
        List<Error> errors = schema.validate(input, InputFormat.JSON);
        ObjectNode plain = mapper.createObjectNode();
        ArrayNode lines = plain.putArray("errors");
        ArrayNode objects = mapper.createArrayNode();
        for (Error e : errors) {
            lines.add(e.toString());
            ObjectNode o = objects.addObject();
            o.put("instanceLocation", String.valueOf(e.getInstanceLocation()));
            o.put("evaluationPath", String.valueOf(e.getEvaluationPath()));
            o.put("schemaLocation", String.valueOf(e.getSchemaLocation()));
            o.put("keyword", e.getKeyword());
            o.put("property", e.getProperty());
            o.put("message", e.getMessage());
        }
        write(mapper, out.resolve("networknt-error-strings.json"), plain);
        write(mapper, out.resolve("networknt-errors.json"), mapper.createObjectNode().set("errors", objects));

        // The JSON Schema "list" output format (2020-12 spec, section 12.4), as networknt renders it.
        OutputUnit list = schema.validate(input, InputFormat.JSON, OutputFormat.LIST);
        write(mapper, out.resolve("networknt-output-list.json"), mapper.valueToTree(list));
    }

    private static void write(JsonMapper mapper, Path file, Object value) throws Exception {
        Files.writeString(file, mapper.writerWithDefaultPrettyPrinter().writeValueAsString(value) + "\n");
    }
}
