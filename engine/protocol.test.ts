/**
 * The contract test: the protocol table against the Agent SDK's type definitions. The SDK
 * package is ESM-only, so its .d.ts is read as text and parsed with regular expressions.
 */
import * as fs from 'fs';
import * as path from 'path';
import { EVENT_NAMES, eventProtocols, outcomeSupport, protocolFor } from './protocol';

const SDK_TYPES = path.join(__dirname, '..', 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'sdk.d.ts');
const sdk = fs.readFileSync(SDK_TYPES, 'utf8');

function sdkHookEvents(): string[] {
  const list = /export declare const HOOK_EVENTS: readonly \[([^\]]*)\]/.exec(sdk);
  if (!list) throw new Error('HOOK_EVENTS not found in sdk.d.ts');
  return [...list[1].matchAll(/'([A-Za-z]+)'/g)].map((m) => m[1]);
}

/** `<Event>HookSpecificOutput` type bodies, keyed by event. */
function sdkSpecificOutputs(): Map<string, string> {
  const types = new Map<string, string>();
  for (const m of sdk.matchAll(/export declare type (\w+)HookSpecificOutput = \{([\s\S]*?)\n\};/g)) types.set(m[1], m[2]);
  return types;
}

/** Top-level field names of a type body (nested objects and doc comments skipped). */
function topLevelFields(body: string): string[] {
  const fields: string[] = [];
  let depth = 0;
  for (const line of body.replace(/\/\*\*[\s\S]*?\*\//g, '').split('\n')) {
    const m = /^\s*(\w+)\??:/.exec(line);
    if (m && depth === 0) fields.push(m[1]);
    depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
  }
  return fields;
}

/**
 * Events whose SDK type has additionalContext although the table says context does not
 * reach the model, with the reason (contract reference, section 5).
 */
const CONTEXT_IN_SDK_BUT_NOT_HONOURED: Record<string, string> = {
  Setup: '5.2: since S2 every JSON field of Setup is discarded, additionalContext included',
  Notification: '5.11: the SDK type allows it, but the current CLI docs do not document it; output is discarded',
};

describe('eventProtocols() vs the Agent SDK', () => {
  const events = sdkHookEvents();
  const outputs = sdkSpecificOutputs();

  it('parses a plausible HOOK_EVENTS list', () => {
    expect(events.length).toBeGreaterThan(20);
    expect(events).toContain('PreToolUse');
  });

  it('covers exactly the SDK hook events', () => {
    const missing = events.filter((e) => !protocolFor(e));
    const extra = EVENT_NAMES.filter((e) => !events.includes(e));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it('has one row per event, built on demand, the same object however it is reached', () => {
    expect(new Set(EVENT_NAMES).size).toBe(eventProtocols().length);
    expect(eventProtocols().map((p) => p.event)).toEqual(EVENT_NAMES);
    for (const p of eventProtocols()) expect(protocolFor(p.event)).toBe(p);
    expect(protocolFor('NoSuchEvent')).toBeUndefined();
  });

  it('names only SDK events in *HookSpecificOutput types, with matching hookEventName', () => {
    expect(outputs.size).toBeGreaterThan(10);
    for (const [event, body] of outputs) {
      expect(events).toContain(event);
      expect(body).toContain(`hookEventName: '${event}';`);
    }
  });

  it.each(eventProtocols().filter((p) => p.context).map((p) => [p.event]))(
    '%s: context: true and the SDK type has additionalContext', (event) => {
      expect(topLevelFields(outputs.get(event) ?? '')).toContain('additionalContext');
    },
  );

  it('every SDK additionalContext is in the table or a documented exception', () => {
    const sdkContext = [...outputs].filter(([, body]) => topLevelFields(body).includes('additionalContext')).map(([e]) => e);
    const unexplained = sdkContext.filter((e) => !protocolFor(e)?.context && !(e in CONTEXT_IN_SDK_BUT_NOT_HONOURED));
    expect(unexplained).toEqual([]);
    for (const e of Object.keys(CONTEXT_IN_SDK_BUT_NOT_HONOURED)) expect(protocolFor(e)?.context).toBe(false);
  });

  it('permission-decision events have permissionDecision (+ reason) in the SDK type', () => {
    const rows = eventProtocols().filter((p) => p.permission?.channel === 'permission-decision');
    expect(rows.map((p) => p.event).sort()).toEqual(['PreModelSwitch', 'PreToolUse']);
    for (const p of rows) {
      const fields = topLevelFields(outputs.get(p.event) ?? '');
      expect(fields).toEqual(expect.arrayContaining(['permissionDecision', 'permissionDecisionReason']));
    }
    const decisions = /export declare type HookPermissionDecision = ([^;]*);/.exec(sdk)?.[1] ?? '';
    for (const d of ['allow', 'deny', 'ask']) expect(decisions).toContain(`'${d}'`);
  });

  it('PermissionRequest has decision.behavior allow|deny (deny with message), and no ask', () => {
    const body = outputs.get('PermissionRequest') ?? '';
    expect(topLevelFields(body)).toEqual(['hookEventName', 'decision']);
    expect(body).toMatch(/behavior: 'allow';/);
    expect(body).toMatch(/behavior: 'deny';\s*message\?: string;/);
    expect(body).not.toMatch(/behavior: 'ask'/);
    expect(protocolFor('PermissionRequest')?.permission).toEqual({ channel: 'permission-behavior', outcomes: ['deny', 'allow'] });
  });

  it('events without a permission channel have no permissionDecision in the SDK', () => {
    for (const [event, body] of outputs) {
      if (protocolFor(event)?.permission?.channel !== 'permission-decision') {
        expect(topLevelFields(body)).not.toContain('permissionDecision');
      }
    }
  });
});

describe('outcomeSupport', () => {
  it.each([
    ['PreToolUse', 'deny', true, 'model'],
    ['PreToolUse', 'ask', true, 'nowhere'],
    ['PermissionRequest', 'ask', false, 'nowhere'],
    ['PermissionRequest', 'deny', true, 'model'],
    ['PermissionRequest', 'allow', true, 'nowhere'],
    ['Stop', 'block', true, 'model'],
    ['UserPromptSubmit', 'block', true, 'user'],
    ['SubagentStart', 'block', false, 'nowhere'],
    ['SubagentStart', 'context', true, 'model'],
    ['PostToolUse', 'deny', false, 'nowhere'],
    ['Notification', 'warn', false, 'nowhere'],
    ['Notification', 'context', false, 'nowhere'],
    ['WorktreeCreate', 'block', false, 'nowhere'],
    ['NotAnEvent', 'warn', false, 'nowhere'],
  ] as const)('%s %s -> supported %s, read by %s', (event, outcome, supported, audience) => {
    expect(outcomeSupport(event, outcome)).toMatchObject({ supported, audience });
  });
});
