/**
 * Pins of MCP definitions: a hash of every tool, prompt, resource and resource template a server
 * lists, recorded once and compared later, so a definition that changes after it was reviewed (a
 * "rug pull") is noticed. In the core because both the auditor ({@code warden audit --pin}) and the
 * gateway ({@code pin:} per upstream) read and write the same file, and neither depends on the other.
 */
package dev.warden.core.pin;
