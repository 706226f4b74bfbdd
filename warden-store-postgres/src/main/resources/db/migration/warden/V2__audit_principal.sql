-- An audit record's principal is its kind, issuer and subject together (issue 30): a token could
-- carry a subject an API key has, so the subject alone does not say who called.
ALTER TABLE warden_audit ADD COLUMN issuer text, ADD COLUMN kind text;
