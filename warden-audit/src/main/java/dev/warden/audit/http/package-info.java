/** Checks of a Streamable HTTP endpoint: DNS rebinding, session ids, 401 metadata, version banners. */
package dev.warden.audit.http;
