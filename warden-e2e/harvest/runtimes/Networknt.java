import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;

/** Validates the caller's arguments with networknt's json-schema-validator; prints each error as the library renders it. */
public class Networknt {
    public static void main(String[] args) {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
        Schema schema = registry.getSchema(
                "{\"type\":\"object\",\"required\":[\"email\",\"name\"],\"properties\":{\"email\":{\"type\":\"string\",\"format\":\"email\"},"
                        + "\"name\":{\"type\":\"string\",\"minLength\":1}}}", InputFormat.JSON);
        for (Error e : schema.validate(args[0], InputFormat.JSON)) {
            System.out.println(e.getInstanceLocation() + "\t" + e);
        }
    }
}
