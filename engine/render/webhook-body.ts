/**
 * `settings.log.webhook.body`: the shape a team's API wants, as a mapping whose string
 * values are `{{name}}` templates over the recorded decision. Pure: the host gives it the
 * values (already redacted) and redacts the rendered body again.
 */
import { parseTemplate, renderTemplate } from '../evaluate/template';
import type { JsonValue } from '../types';

/** What a body template may name, each with what it renders (docs/language.md, The webhook body). */
export const WEBHOOK_BODY_VALUES: Readonly<Record<string, string>> = {
  outcome: 'the decision: deny, ask, allow, block, none',
  rule: 'the first rule that decided (or fired)',
  rules: 'every such rule, joined by ", "',
  reason: 'the deciding rules\' message',
  agent: 'the agent (empty for the main session)',
  tool: 'the tool name',
  event: 'the hook event name',
  path: 'the first path the call touches',
  paths: 'every path the call touches, joined by ", "',
  command: 'tool_input.command',
  session: 'the session id',
  time: 'when it was decided (ISO 8601, UTC)',
  project: 'the project folder\'s name',
  cwd: 'the event\'s working folder',
};

/**
 * The body with every string rendered as a template (keys and other values as they are),
 * at any depth, arrays included. A name with no value renders as empty text.
 * @example renderWebhookBody({ status: 'denied', agentName: '{{agent}}' }, (n) => ({ agent: 'lynch' })[n])
 *          // { status: 'denied', agentName: 'lynch' }
 */
export function renderWebhookBody(body: JsonValue, lookup: (name: string) => string | undefined): JsonValue {
  if (typeof body === 'string') return renderTemplate(body, lookup);
  if (Array.isArray(body)) return body.map((v) => renderWebhookBody(v, lookup));
  if (body !== null && typeof body === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [key, value] of Object.entries(body)) out[key] = renderWebhookBody(value, lookup);
    return out;
  }
  return body;
}

/**
 * Every string of the body with where it is (its path of keys and indices), for checks.
 * @example bodyStrings({ a: ['x'] }) // [{ at: ['a', 0], text: 'x' }]
 */
export function bodyStrings(body: unknown, at: Array<string | number> = []): Array<{ at: Array<string | number>; text: string }> {
  if (typeof body === 'string') return [{ at, text: body }];
  if (Array.isArray(body)) return body.flatMap((v, i) => bodyStrings(v, [...at, i]));
  if (body !== null && typeof body === 'object') return Object.entries(body).flatMap(([k, v]) => bodyStrings(v, [...at, k]));
  return [];
}

/**
 * The names a body template uses that WEBHOOK_BODY_VALUES does not have, with the offset
 * of each placeholder's `{{` in the text.
 * @example unknownBodyNames('{{agent}} {{agnt}}') // [{ name: 'agnt', offset: 10 }]
 */
export function unknownBodyNames(text: string): Array<{ name: string; offset: number }> {
  const parts = parseTemplate(text);
  const out: Array<{ name: string; offset: number }> = [];
  let offset = 0;
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 1) {
      const at = text.indexOf('{{', offset);
      if (!Object.prototype.hasOwnProperty.call(WEBHOOK_BODY_VALUES, parts[i])) out.push({ name: parts[i], offset: at });
      offset = text.indexOf('}}', at) + 2;
    } else {
      offset += parts[i].length;
    }
  }
  return out;
}
