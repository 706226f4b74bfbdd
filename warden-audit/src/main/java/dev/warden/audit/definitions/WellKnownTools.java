package dev.warden.audit.definitions;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Tool names of popular servers, with the {@code serverInfo.name} each belongs to: a tool of
 * another server by one of these names may be chosen by a model meaning the original (or be meant
 * to be). Taken from the official reference servers' {@code tools/list} (server-filesystem,
 * server-memory, server-everything, server-sequential-thinking, server-postgres, as captured in the
 * tests' resources). A generic name no one server owns ({@code search}, {@code login}, {@code bash})
 * shadows nothing in particular: flagging every server that has one would bury the real cases.
 */
final class WellKnownTools {

    private static final String FILESYSTEM = "secure-filesystem-server";
    private static final String MEMORY = "memory-server";

    private static final Map<String, Set<String>> OWNERS = Map.ofEntries(
            Map.entry("read_file", Set.of(FILESYSTEM)),
            Map.entry("read_text_file", Set.of(FILESYSTEM)),
            Map.entry("read_multiple_files", Set.of(FILESYSTEM)),
            Map.entry("write_file", Set.of(FILESYSTEM)),
            Map.entry("edit_file", Set.of(FILESYSTEM)),
            Map.entry("create_directory", Set.of(FILESYSTEM)),
            Map.entry("list_directory", Set.of(FILESYSTEM)),
            Map.entry("directory_tree", Set.of(FILESYSTEM)),
            Map.entry("move_file", Set.of(FILESYSTEM)),
            Map.entry("search_files", Set.of(FILESYSTEM)),
            Map.entry("get_file_info", Set.of(FILESYSTEM)),
            Map.entry("list_allowed_directories", Set.of(FILESYSTEM)),
            Map.entry("create_entities", Set.of(MEMORY)),
            Map.entry("create_relations", Set.of(MEMORY)),
            Map.entry("delete_entities", Set.of(MEMORY)),
            Map.entry("read_graph", Set.of(MEMORY)),
            Map.entry("search_nodes", Set.of(MEMORY)),
            Map.entry("sequentialthinking", Set.of("sequential-thinking-server")),
            Map.entry("query", Set.of("example-servers/postgres")),
            Map.entry("fetch", Set.of("mcp-fetch")));

    /**
     * The names popular servers go by, as {@link Lookalikes} compares them (words joined, the words
     * {@code mcp} and {@code server} dropped): the official reference servers and widely installed
     * ones. A generic word ({@code fetch}, {@code time}, {@code git}, {@code memory}) is left out:
     * many servers are rightly called so, and a name one letter from it says nothing.
     */
    static final Set<String> SERVERS = Set.of("github", "gitlab", "slack", "filesystem", "postgres", "sqlite",
            "puppeteer", "playwright", "bravesearch", "googlemaps", "googledrive", "gdrive", "notion", "stripe",
            "twitter", "sentry", "sequentialthinking", "everart", "awskbretrieval", "linear", "atlassian", "jira",
            "confluence", "supabase", "cloudflare", "vercel", "firecrawl", "tavily", "perplexity", "discord", "gmail",
            "googlecalendar", "hubspot", "salesforce", "shopify", "airtable", "figma", "docker", "kubernetes",
            "mongodb", "mysql", "pinecone", "qdrant", "elasticsearch", "obsidian", "spotify", "youtube", "reddit",
            "telegram", "whatsapp", "todoist", "asana", "zapier", "paypal", "twilio", "context7", "browserbase",
            "desktopcommander", "everything");

    private WellKnownTools() {
    }

    /** The well-known tool names, as {@link #shadowed} keys them ({@code read_file}). */
    static Set<String> tools() {
        return OWNERS.keySet();
    }

    /**
     * Whether a tool named {@code name} on the server {@code server} shadows a well-known one: the
     * name is well known and the server is not the one it comes from. Case and separators count
     * as the same ({@code Read-File} shadows {@code read_file}).
     */
    static Optional<String> shadowed(String name, Optional<String> server) {
        String key = String.join("_", NameParts.of(name));
        Set<String> owners = OWNERS.get(key);
        if (owners == null || server.map(owners::contains).orElse(false)) {
            return Optional.empty();
        }
        return Optional.of(key);
    }
}
