package dev.warden.console.web;

import dev.warden.console.page.AuditView;
import dev.warden.console.page.Frame;
import dev.warden.console.page.IncidentSearch;
import dev.warden.console.page.IncidentView;
import dev.warden.console.page.IncidentsView;
import dev.warden.console.page.Markup;
import dev.warden.console.page.PinsView;
import dev.warden.console.page.Tab;
import dev.warden.console.page.ToolsView;
import dev.warden.console.page.UpstreamsView;
import dev.warden.core.error.ErrorCode;
import dev.warden.core.error.Ref;
import dev.warden.core.incident.Incident;
import dev.warden.core.incident.IncidentStore;
import dev.warden.gateway.auditlog.AuditQuery;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/** Which page a GET asks for; each is made anew from the sources, nothing is kept between requests. */
public final class Routes {

    /** Incidents read from the store for one search, before the name filters; rows shown of them. */
    static final int READ = IncidentsView.READ;
    static final int SHOWN = 200;
    /** The method the gateway's pin watch records a changed definition under (PinWatch). */
    static final String PIN_METHOD = "definition-pin";
    static final Duration PINS_SINCE = Duration.ofDays(14);
    private static final String INCIDENT_PREFIX = "/incidents/";

    private static final System.Logger LOG = System.getLogger(Routes.class.getName());

    private final Sources sources;

    public Routes(Sources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    /** @param query the request's decoded parameters (the first value of each) */
    public Answer get(String path, Map<String, String> query) {
        Instant now = sources.clock().instant();
        if (path.startsWith(INCIDENT_PREFIX)) {
            return incident(path.substring(INCIDENT_PREFIX.length()), now);
        }
        return switch (path) {
            case "/" -> Answer.html(200, UpstreamsView.render(sources.upstreams().get(),
                    sources.feed().stats().lastHour(), now));
            case "/tools" -> Answer.html(200, ToolsView.render(sources.feed().stats().lastHour(),
                    Optional.ofNullable(query.get("upstream")).filter(u -> !u.isBlank()), now));
            case "/incidents" -> incidents(IncidentSearch.of(query), now);
            case "/audit" -> audit(now);
            case "/pins" -> Answer.html(200, PinsView.render(sources.upstreams().get(), sources.incidents()
                    .map(s -> s.list(now.minus(PINS_SINCE), Optional.of(ErrorCode.BLOCKED), READ).stream()
                            .filter(i -> PIN_METHOD.equals(i.method())).toList()).orElse(List.of()),
                    sources.incidents().isPresent(), now));
            case Frame.SIGN_OUT -> SignInPages.nothingToSignOutOf(); // with browser sign-in, BrowserSignIn answers it
            default -> notFound(Optional.empty(), "No such page.", now);
        };
    }

    /**
     * The audit store's last records when the console was given one, so the tail survives a restart
     * and, with PostgreSQL, holds every replica's; else, or when it cannot be read, the feed's.
     */
    private Answer audit(Instant now) {
        if (sources.auditLog().isPresent()) {
            try {
                return Answer.html(200, AuditView.render(sources.auditLog().get().list(AuditQuery.since(Instant.EPOCH,
                        SHOWN)), AuditView.Source.STORE, now));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "the console could not read the audit store; the audit page shows "
                        + "this process's records", e);
                return Answer.html(200, AuditView.render(sources.feed().tail().newestFirst(),
                        AuditView.Source.MEMORY_STORE_UNREADABLE, now));
            }
        }
        return Answer.html(200, AuditView.render(sources.feed().tail().newestFirst(), AuditView.Source.MEMORY, now));
    }

    private Answer incidents(IncidentSearch search, Instant now) {
        if (!search.ref().isEmpty()) {
            if (Ref.isWellFormed(search.ref())) {
                return Answer.seeOther(INCIDENT_PREFIX + search.ref()); // a ref's alphabet needs no escaping
            }
            return Answer.html(400, IncidentsView.render(search, List.of(), false, false,
                    "Not a ref: a ref is ref_ and 16 characters of a-k, m-z, 2-9.", now));
        }
        if (sources.incidents().isEmpty()) {
            return Answer.html(200, IncidentsView.render(search, List.of(), false, false,
                    "The console was given no incident store.", now));
        }
        IncidentStore store = sources.incidents().get();
        List<Incident> read = store.list(search.start(now), search.to(), Optional.empty(), READ);
        List<Incident> matching = read.stream().filter(search::matches).limit(SHOWN + 1L).toList();
        boolean more = matching.size() > SHOWN;
        // The names are matched here, after the read: a period holding more than READ incidents was
        // searched from its newest only, and the page must not pass that off as "no match".
        return Answer.html(200, IncidentsView.render(search, more ? matching.subList(0, SHOWN) : matching, more,
                read.size() >= READ, "", now));
    }

    private Answer incident(String ref, Instant now) {
        if (!Ref.isWellFormed(ref)) {
            String lower = IncidentSearch.asciiLowerCase(ref);
            // a ref read out or pasted in upper case: the same incident, at its own address
            return Ref.isWellFormed(lower) ? Answer.seeOther(INCIDENT_PREFIX + lower)
                    : notFound(Optional.of(Tab.INCIDENTS), "Not a ref.", now);
        }
        Optional<Incident> found = sources.incidents().flatMap(s -> s.find(new Ref(ref)));
        return found.map(i -> Answer.html(200, IncidentView.render(i, IncidentView.refsIn(i).stream()
                        .filter(r -> sources.incidents().get().find(r).isPresent()).collect(Collectors.toSet()), now)))
                .orElseGet(() -> notFound(Optional.of(Tab.INCIDENTS), sources.incidents().isEmpty()
                        ? "The console was given no incident store."
                        : "No incident with this ref in this gateway's data directory: it was recorded under another"
                                + " one, or removed past the store's retention.", now));
    }

    /** @param tab the tab of the route asked for: a missing incident is the incidents' page */
    private static Answer notFound(Optional<Tab> tab, String why, Instant now) {
        return Answer.html(404, Frame.page(tab, "Not found", now,
                new Markup().tag("<h1>Not found</h1><p class=\"empty\">").text(why).tag("</p>")));
    }
}
