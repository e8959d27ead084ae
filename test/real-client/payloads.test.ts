/**
 * The contract-drift check: a payload field the engine's event table does not list, or an
 * event it does not know, is reported once; known fields are not.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readPayloads, unknownFields } from './payloads';

describe('unknownFields', () => {
  it('passes fields the table lists, common and per event', () => {
    expect(unknownFields([
      { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/p', agent_type: 'lynch', tool_name: 'Write', tool_input: {}, tool_use_id: 't' },
      { hook_event_name: 'Stop', session_id: 's', stop_hook_active: false, last_assistant_message: 'ok' },
    ])).toEqual([]);
  });

  it('reports a new field once per event, and an unknown event as a whole', () => {
    expect(unknownFields([
      { hook_event_name: 'Stop', session_id: 's', stop_reason_v2: 'x' },
      { hook_event_name: 'Stop', session_id: 's', stop_reason_v2: 'y' },
      { hook_event_name: 'PreToolUse', tool_name: 'Write', stop_hook_active: true },
      { hook_event_name: 'FutureEvent', session_id: 's' },
    ])).toEqual([
      { event: 'Stop', field: 'stop_reason_v2' },
      { event: 'PreToolUse', field: 'stop_hook_active' },
      { event: 'FutureEvent', field: '*' },
    ]);
  });
});

describe('readPayloads', () => {
  it('reads each saved payload, skipping empty files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-payloads-'));
    fs.writeFileSync(path.join(dir, 'payload-a.json'), '{"hook_event_name":"Stop","session_id":"s"}');
    fs.writeFileSync(path.join(dir, 'payload-b.json'), '');
    expect(readPayloads(dir)).toEqual([{ hook_event_name: 'Stop', session_id: 's' }]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
