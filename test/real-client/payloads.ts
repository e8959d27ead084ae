/**
 * The hook payloads the client sent during a session (saved by the capture hook that
 * project.ts registers), and their check against the engine's table of event fields: a
 * field the table does not know is contract drift.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMON_FIELDS, EVENT_FIELDS } from '../../engine/lint/event-fields';

export type Payload = Record<string, unknown> & { hook_event_name: string };

/** Every payload saved in `payloadDir`, in the order they were written. */
export function readPayloads(payloadDir: string): Payload[] {
  return fs
    .readdirSync(payloadDir)
    .map((name) => path.join(payloadDir, name))
    .map((file) => ({ file, mtime: fs.statSync(file).mtimeMs, text: fs.readFileSync(file, 'utf8') }))
    .filter((p) => p.text.trim() !== '')
    .sort((a, b) => a.mtime - b.mtime)
    .map((p) => JSON.parse(p.text) as Payload);
}

/** One field the engine's table does not list for its event. */
export interface UnknownField {
  event: string;
  field: string;
}

/**
 * Fields of the payloads that neither COMMON_FIELDS nor the event's row in EVENT_FIELDS
 * lists, and events the table does not know at all (field '*').
 * @example unknownFields([{ hook_event_name: 'Stop', session_id: 's', shiny: 1 }]) // [{ event: 'Stop', field: 'shiny' }]
 */
export function unknownFields(payloads: Payload[]): UnknownField[] {
  const seen = new Set<string>();
  const unknown: UnknownField[] = [];
  for (const payload of payloads) {
    const event = payload.hook_event_name;
    const own = EVENT_FIELDS[event];
    const fields = own ? Object.keys(payload).filter((f) => !COMMON_FIELDS.includes(f) && !own.includes(f)) : ['*'];
    for (const field of fields) {
      const key = `${event}.${field}`;
      if (!seen.has(key)) unknown.push({ event, field });
      seen.add(key);
    }
  }
  return unknown;
}

/** The payloads of one event. */
export function payloadsOf(payloads: Payload[], event: string): Payload[] {
  return payloads.filter((p) => p.hook_event_name === event);
}
