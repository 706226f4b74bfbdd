/** JSON Schema validation of tool arguments and results, turned into violations a model can act on. */
module dev.warden.schema {
    requires transitive dev.warden.core;
    requires com.networknt.schema;
    // RE2/J has no module name of its own: patterns in schemas are matched without backtracking.
    requires re2j;

    exports dev.warden.schema;
}
