-- Incidents and audit records, each table range-partitioned by day on "at" (UTC): the store
-- creates each day's partition ahead of use and retention drops whole partitions, which costs a
-- catalog change rather than a DELETE of every old row.

CREATE TABLE warden_incident (
    ref       text        NOT NULL,
    at        timestamptz NOT NULL,
    code      text        NOT NULL,
    method    text        NOT NULL,
    tool      text,
    upstream  text,
    subject   text,
    client_id text,
    -- The whole incident as JSON text (IncidentJson.atRest: credentials already replaced). Text, not
    -- jsonb: jsonb refuses the \u0000 escape that an upstream's error text may carry.
    record    text        NOT NULL
) PARTITION BY RANGE (at);

CREATE INDEX warden_incident_ref ON warden_incident (ref);
CREATE INDEX warden_incident_at ON warden_incident (at DESC);
CREATE INDEX warden_incident_tool ON warden_incident (tool, at DESC);
CREATE INDEX warden_incident_subject ON warden_incident (subject, at DESC);

CREATE TABLE warden_audit (
    at          timestamptz      NOT NULL,
    client      text             NOT NULL,
    upstream    text,
    method      text             NOT NULL,
    tool        text,
    duration_ms double precision NOT NULL,
    outcome     text             NOT NULL,
    code        text,
    ref         text,
    subject     text,
    client_id   text
) PARTITION BY RANGE (at);

CREATE INDEX warden_audit_at ON warden_audit (at DESC);
CREATE INDEX warden_audit_tool ON warden_audit (tool, at DESC);
CREATE INDEX warden_audit_subject ON warden_audit (subject, at DESC);
CREATE INDEX warden_audit_ref ON warden_audit (ref) WHERE ref IS NOT NULL;
