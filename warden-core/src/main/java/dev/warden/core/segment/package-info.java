/**
 * Append-only files of JSON lines kept within a {@link dev.warden.core.segment.Retention}: the
 * mechanics the incident store and the gateway's audit log share (files only their owner reads,
 * one write per record and a failed write cut back, whole files removed oldest first by age and
 * size). Each store keeps its own file names and record format.
 */
package dev.warden.core.segment;
