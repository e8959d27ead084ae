import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { EVENT_NAMES } from '../protocol';
import { COMMON_FIELDS, EVENT_FIELDS, eventCarries } from './event-fields';

/** Top-level property names of each `<Event>HookInput` type in the Agent SDK's declarations. */
function sdkHookInputs(): Map<string, string[]> {
  const file = path.join(__dirname, '..', '..', 'node_modules', '@anthropic-ai', 'claude-agent-sdk', 'sdk.d.ts');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const aliases = new Map<string, ts.TypeNode>();
  source.forEachChild((node) => {
    if (ts.isTypeAliasDeclaration(node)) aliases.set(node.name.text, node.type);
  });
  const props = (type: ts.TypeNode): string[] => {
    if (ts.isParenthesizedTypeNode(type)) return props(type.type);
    if (ts.isIntersectionTypeNode(type)) return type.types.flatMap(props);
    if (ts.isTypeLiteralNode(type)) {
      return type.members.flatMap((m) => (ts.isPropertySignature(m) && ts.isIdentifier(m.name) ? [m.name.text] : []));
    }
    if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
      const target = aliases.get(type.typeName.text);
      return target ? props(target) : [];
    }
    return [];
  };
  const out = new Map<string, string[]>();
  for (const [name, type] of aliases) {
    const m = /^(\w+)HookInput$/.exec(name);
    if (m && m[1] !== 'Base' && ts.isIntersectionTypeNode(type)) out.set(m[1], props(type));
  }
  return out;
}

describe('event field table', () => {
  const sdk = sdkHookInputs();

  it('has a row for every event of the protocol table, and no other', () => {
    expect(Object.keys(EVENT_FIELDS).sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('parsed the SDK declarations', () => {
    expect(sdk.size).toBeGreaterThan(25);
    expect(sdk.get('PreToolUse')).toEqual(expect.arrayContaining(['tool_name', 'tool_input', 'session_id']));
  });

  it.each([...EVENT_NAMES])('%s carries every field the SDK type declares', (event) => {
    const declared = sdk.get(event);
    if (!declared) return; // an event newer than the SDK
    const missing = declared.filter((f) => !eventCarries(event, f));
    expect(missing).toEqual([]);
  });

  it.each([
    ['PreToolUse', 'tool_input.command', true],
    ['PreToolUse', 'team_name', false],
    ['TeammateIdle', 'team_name', true],
    ['Stop', 'tool_input.file_path', false],
    ['Stop', 'cwd', true],
    ['NotAnEvent', 'anything', true],
  ])('%s carries %s: %s', (event, field, expected) => {
    expect(eventCarries(event, field)).toBe(expected);
  });

  it('keeps the common fields out of the per-event rows', () => {
    for (const [event, fields] of Object.entries(EVENT_FIELDS)) {
      expect([event, fields.filter((f) => COMMON_FIELDS.includes(f))]).toEqual([event, []]);
    }
  });
});
