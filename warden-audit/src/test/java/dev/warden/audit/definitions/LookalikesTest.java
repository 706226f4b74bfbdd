package dev.warden.audit.definitions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.warden.audit.Rule;
import org.junit.jupiter.api.Test;

class LookalikesTest {

    @Test
    void aServerNamedOneSlipFromAWellKnownOneIsALookalike() {
        Definitions d = Fixtures.tools("twittter-mcp", "[]");
        assertThat(DefinitionChecks.lookalikes(d)).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo(Rule.LOOKALIKE_NAME);
            assertThat(f.tool()).isEmpty();
            assertThat(f.location()).isEqualTo("definition:/serverInfo/name");
            assertThat(f.message()).contains("twitter");
        });
    }

    @Test
    void theWellKnownNameItselfIsNoLookalikeWhateverItsCaseAndSeparators() {
        for (String name : new String[] {"twitter-mcp", "mcp-server-github", "@modelcontextprotocol/server-slack",
            "Brave_Search", "GitLab MCP Server"}) {
            assertThat(DefinitionChecks.lookalikes(Fixtures.tools(name, "[]"))).as(name).isEmpty();
        }
    }

    @Test
    void aTransposedPairInALongNameAndTwoSlipsInALongOneAreLookalikes() {
        assertThat(DefinitionChecks.lookalikes(Fixtures.tools("puppetter-mcp", "[]"))).hasSize(1);
        assertThat(DefinitionChecks.lookalikes(Fixtures.tools("palywright", "[]"))).hasSize(1);
        assertThat(DefinitionChecks.lookalikes(Fixtures.tools("elastic-serach-mcp", "[]"))).hasSize(1);
    }

    @Test
    void aShortNameTwoSlipsAwayAndADifferentNameAreNot() {
        // gitlab is two substitutions from github: both well known, neither imitates the other.
        for (String name : new String[] {"gitlab", "gihtbu", "weather", "notes-server", "demo", "acme-orders"}) {
            assertThat(DefinitionChecks.lookalikes(Fixtures.tools(name, "[]"))).as(name).isEmpty();
        }
    }

    @Test
    void aToolNamedOneSlipFromAWellKnownToolIsALookalike() {
        Definitions d = Fixtures.tools("notes", "[{\"name\":\"list\"},{\"name\":\"read_flie\"}]");
        assertThat(DefinitionChecks.lookalikes(d)).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo(Rule.LOOKALIKE_NAME);
            assertThat(f.tool()).contains("read_flie");
            assertThat(f.location()).isEqualTo("definition:/tools/1/name");
            assertThat(f.message()).contains("read_file");
        });
    }

    @Test
    void genericToolNamesAndTheOfficialServersHaveNoLookalikes() {
        Definitions d = Fixtures.tools("s", "[{\"name\":\"queries\"},{\"name\":\"fetcher\"},{\"name\":\"search\"}]");
        assertThat(DefinitionChecks.lookalikes(d)).isEmpty();
        for (String official : Fixtures.OFFICIAL) {
            assertThat(DefinitionChecks.lookalikes(Fixtures.official(official))).as(official).isEmpty();
        }
    }

    @Test
    void distanceCountsATranspositionAsOneSlip() {
        assertThat(Lookalikes.distance("twitter", "twitter")).isZero();
        assertThat(Lookalikes.distance("twittter", "twitter")).isEqualTo(1);
        assertThat(Lookalikes.distance("slakc", "slack")).isEqualTo(1);
        assertThat(Lookalikes.distance("gitlab", "github")).isEqualTo(2);
    }

    @Test
    void realWordsProductsPluralsAndNumberedCopiesAreNoServerLookalikes() {
        // each was reported against a well-known name by a substitution, a digit or a dropped letter
        for (String name : new String[] {"mcp-email-server", "mssql-mcp", "sqlite3", "context", "stack-server",
            "motion", "sigma", "locker", "entry", "github2", "mcp-server-sqlite3", "context7"}) {
            assertThat(Lookalikes.server(name)).as(name).isEmpty();
        }
        // a name is a weak signal: low, so a real word that slips through costs 3 points, not 10
        assertThat(Rule.LOOKALIKE_NAME.severity()).isEqualTo(dev.warden.audit.Severity.LOW);
    }

    @Test
    void pluralsAndOtherWordsAreNoToolLookalikes() {
        for (String name : new String[] {"read_files", "write_files", "edit_files", "search_notes", "search_code",
            "create_relation"}) {
            assertThat(Lookalikes.tool(name)).as(name).isEmpty();
        }
    }

    @Test
    void aDoubledADroppedAndATransposedLetterAreStillSlips() {
        assertThat(Lookalikes.server("twittter-mcp")).contains("twitter");
        assertThat(Lookalikes.server("githb-mcp")).contains("github");
        assertThat(Lookalikes.server("mcp-server-sentyr")).contains("sentry");
        assertThat(Lookalikes.server("puppetter")).contains("puppeteer");
        assertThat(Lookalikes.server("slackk2")).contains("slack");
        assertThat(Lookalikes.tool("read_flie")).contains("read_file");
        assertThat(Lookalikes.tool("serach_nodes")).contains("search_nodes");
        assertThat(Lookalikes.tool("wrte_file")).contains("write_file");
    }

    @Test
    void slipsCountOnlyWhatAHandSlipsInto() {
        assertThat(Lookalikes.slips("twittter", "twitter")).isEqualTo(1);
        assertThat(Lookalikes.slips("slakc", "slack")).isEqualTo(1);
        assertThat(Lookalikes.slips("githb", "github")).isEqualTo(1);
        assertThat(Lookalikes.slips("puppetter", "puppeteer")).isEqualTo(1);
        assertThat(Lookalikes.slips("mssql", "mysql")).isGreaterThan(1); // y dropped and s doubled: two slips
        assertThat(Lookalikes.slips("searchnotes", "searchnodes")).isGreaterThan(2);
        assertThat(Lookalikes.slips("gitlab", "github")).isGreaterThan(2);
    }
}
