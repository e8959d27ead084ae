/**
 * What the schema leaves to code in `settings.memory.summarizer`: exactly one of `command`
 * (the headless CLI) and `url` (an endpoint); an endpoint needs a model; the endpoint's own
 * keys (api, key_env, max_tokens) mean nothing to the CLI.
 */
import { diagnostic } from '../diagnostics';
import type { Diagnostic, SourceMap } from '../types';
import { toPointer } from '../load/source-map';

const POINTER = toPointer(['settings', 'memory', 'summarizer']);
const ENDPOINT_ONLY = ['api', 'key_env', 'max_tokens'];

/**
 * Shape diagnostics of a document's summarizer, placed on it (a settings error).
 * @example placedSummarizerDiagnostics({ settings: { memory: { summarizer: { model: 'm' } } } }, map)[0].diagnostic.code // 'schema-required'
 */
export function placedSummarizerDiagnostics(doc: unknown, map: SourceMap): Array<{ diagnostic: Diagnostic; pointer: string }> {
  const s = isObject(doc) && isObject(doc.settings) && isObject(doc.settings.memory) ? doc.settings.memory.summarizer : undefined;
  if (!isObject(s)) return [];
  const at = (key?: string) => map.locate(key ? POINTER + toPointer([key]) : POINTER, key ? 'key' : undefined);
  const found: Diagnostic[] = [];
  if (s.command !== undefined && s.url !== undefined) {
    found.push(diagnostic('schema-invalid', 'summarizer has both command and url; give only one', at('url'), 'command runs the Claude Code CLI; url calls an endpoint'));
  } else if (s.command === undefined && s.url === undefined) {
    found.push(diagnostic('schema-required', 'summarizer needs command (the Claude Code CLI, e.g. claude) or url (an endpoint)', at()));
  } else if (s.url !== undefined && s.model === undefined) {
    found.push(diagnostic('schema-required', 'summarizer with url needs a model', at('url')));
  } else if (s.command !== undefined) {
    for (const key of ENDPOINT_ONLY.filter((k) => s[k] !== undefined)) {
      found.push(diagnostic('schema-invalid', `summarizer ${key} applies to an endpoint (url), not to command`, at(key)));
    }
  }
  return found.map((d) => ({ diagnostic: d, pointer: POINTER }));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
