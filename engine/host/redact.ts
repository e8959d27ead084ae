/**
 * Secrets out of the decision log and the memory store: every string of a record is
 * scrubbed before it is written to the JSONL file, POSTed to the webhook, exported to
 * OTLP, appended to the memory journal, or sent to a summarizer or an embeddings endpoint. Known key formats keep their
 * public type prefix (`AKIA[REDACTED]`, `ghp_[REDACTED]`) so a reader still sees what
 * leaked; assignments keep their name (`API_KEY=[REDACTED]`). The policy's own
 * `log.redact` patterns run under a watchdog: one that backtracks for long on a crafted
 * command is stopped, and the text it was given is redacted whole.
 */

import { REDACT_WATCHDOG_MS } from '../evaluate/regex';
import { callWithin, TIMED_OUT } from '../evaluate/watchdog';
import { presentKeywords, redactDerived } from './redact-derived';
import { PEM_BLOCK, QUERY_PARAMETER, REDACTED, TOKEN_SCRUBBERS, quotedRedacted, type Scrubber } from './redact-formats';

export { REDACTED } from './redact-formats';

/**
 * Names that say their value is a secret: a strong word anywhere, or a generic word as the
 * last `_`/`-` part (a number after it allowed): `DB_PASS`, `MY_SESSION`, `x-auth`, `KEY_2`.
 * Before another part the generic word only qualifies it (`SESSION-CTX-MARKER`, `AUTH-MODE`, `KEY_ID`).
 */
const SECRET_NAME = /password|passwd|passphrase|secret|token|api_?key|access_?key|private_?key|credential|(?:^|[_-])(?:key|pass|pwd|auth|session|cookie|pat)(?:[_-]\d+)?$/i;

/** camelCase names whose last word is generic: `AccountKey`, `SharedAccessKey`, `dbPass`. */
const CAMEL_SECRET_NAME = /[a-z0-9](?:Key|Pass|Pwd|Auth|Session|Cookie)\d*$/;

/** A text without any of these words (in any case) cannot hold a secret assignment or flag. */
const SECRET_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'credential', 'auth', 'session', 'cookie', 'pat'];

/**
 * `NAME=value`, `NAME: value`, `"name": "value"`, up to the value's first character (its
 * extent is read only for a value that goes: a scan that skips a name never reads its value).
 * The lead keeps `xNAME=` from matching; `=`, `:` and `?` in it find `cmd=API_KEY=x`,
 * `//host/:_authToken=x` and `?access_token=x`.
 */
const ASSIGNMENT = /(^|[\s;&|(,{\['"`=:?])(["']?)([A-Za-z_][A-Za-z0-9_.-]*)\2([ \t]*[=:][ \t]*)(?=[^\s;&|,}\]`])/g;
const ASSIGNMENT_VALUE = /"[^"\n]*"?|'[^'\n]*'?|[^\s;&|,}\]'"`]+/y;

/** `--name value` and `--name=value` on a command line. */
const FLAG = /(^|\s)(--?)([A-Za-z][A-Za-z0-9_-]*)(=|[ \t]+)(?=["']|[^\s;&|'"`-])/g;
const FLAG_VALUE = /"[^"\n]*"?|'[^'\n]*'?|[^\s;&|'"`-][^\s;&|'"`]*/y;

/** A value that starts with another assignment (`cmd=API_KEY=x`): the next match takes it. */
const NESTED = /([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*[=:]/y;

/**
 * `text` with secrets replaced by [REDACTED]: known key formats, values of assignments
 * whose name looks secret, every value of a dotenv-style block, and each match of the
 * `extra` patterns (JavaScript regex sources; when one has a capture group, only the
 * first group is replaced). An extra pattern that does not compile is skipped; extra
 * patterns that take longer than REDACT_WATCHDOG_MS redact the whole text.
 * @example redactText('export API_KEY=abc123 && deploy') // 'export API_KEY=[REDACTED] && deploy'
 */
export function redactText(text: string, extra: readonly string[] = []): string {
  if (extra.length === 0) return scrub(text, extra);
  const done = callWithin(REDACT_WATCHDOG_MS, () => scrub(text, extra));
  return done === TIMED_OUT ? REDACTED : done;
}

function scrub(text: string, extra: readonly string[]): string {
  // A PEM block first: a .env block around it would take its BEGIN line for a value.
  let out = hinted(PEM_BLOCK, text) ? text.replace(PEM_BLOCK.pattern, PEM_BLOCK.replace as (m: string, ...a: unknown[]) => string) : text;
  if (out.includes('\n')) out = redactDotenvBlock(out);
  for (const s of SCRUBBERS) {
    if (hinted(s, out)) out = out.replace(s.pattern, s.replace as (m: string, ...a: unknown[]) => string);
  }
  if (hasSecretWord(out.toLowerCase())) {
    // Flags first: `API_KEY= --password x` would otherwise lose `--password` as API_KEY's value.
    out = redactAssignments(out, FLAG, FLAG_VALUE);
    out = redactAssignments(out, ASSIGNMENT, ASSIGNMENT_VALUE);
  }
  // The formats of gitleaks' rules (redact-derived.ts), after hookpolicy's own.
  out = redactDerived(out);
  for (const source of extra) out = applyExtra(out, source);
  return out;
}

/**
 * A copy of `value` with every string in it (keys excepted) passed through redactText.
 * @example redactRecord({ reason: 'token ghp_...' }, ['ticket-\\d+']).reason // 'token ghp_[REDACTED]'
 */
export function redactRecord<T>(value: T, extra: readonly string[] = []): T {
  // Most records hold no hint of a secret anywhere: one look at all their strings settles it.
  if (extra.length === 0 && !mayHoldSecret(stringsOf(value, 0).join('\0'))) return value;
  if (extra.length === 0) return redactValue(value, extra, 0) as T;
  // One watchdog for the whole record: the policy's patterns may backtrack for long. When it
  // stops them, each string again under its own, so only the one that trips it goes whole.
  const done = callWithin(REDACT_WATCHDOG_MS, () => redactValue(value, extra, 0));
  return (done === TIMED_OUT ? redactValue(value, extra, 0, redactText) : done) as T;
}

/** False when no scrubber of redactText could change any part of `text`. */
function mayHoldSecret(text: string): boolean {
  const lower = text.toLowerCase();
  return text.includes('\n') || hasSecretWord(lower) || hinted(PEM_BLOCK, text) || SCRUBBERS.some((s) => hinted(s, text)) || presentKeywords(lower).size > 0;
}

/** True when the text holds one of the scrubber's hints. */
function hinted(s: Scrubber, text: string): boolean {
  const haystack = s.caseless ? text.toLowerCase() : text;
  return s.hints.some((h) => haystack.includes(h));
}

function hasSecretWord(lower: string): boolean {
  return SECRET_WORDS.some((w) => lower.includes(w));
}

function stringsOf(value: unknown, depth: number): string[] {
  if (typeof value === 'string') return [value];
  if (depth > 50 || value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap((v) => stringsOf(v, depth + 1));
}

/**
 * The extra patterns of a log setting; tolerant of a policy compiled before
 * `log.redact` existed (then none).
 * @example redactPatterns({ file: 'x.jsonl', webhook: null, record: [], redact: ['tk-\\w+'] }) // ['tk-\\w+']
 */
export function redactPatterns(log: object | null | undefined): string[] {
  const list = (log as { redact?: unknown } | null | undefined)?.redact;
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
}

/** The value with each string scrubbed (by `each`). */
function redactValue(value: unknown, extra: readonly string[], depth: number, each: (text: string, extra: readonly string[]) => string = scrub): unknown {
  if (typeof value === 'string') return each(value, extra);
  // Records are shallow; the cap only guards against a pathological value.
  if (depth > 50 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, extra, depth + 1, each));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, extra, depth + 1, each)]));
}

/**
 * Replaces the value of each match whose name looks secret. A match whose name does not
 * is skipped past its name only, so `note: API_KEY=x` still reaches `API_KEY=x`.
 */
function redactAssignments(text: string, pattern: RegExp, valuePattern: RegExp): string {
  const re = new RegExp(pattern.source, 'g');
  let out = '';
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    // Groups: lead, opening quote or dashes, name, separator; the value starts where the match ends.
    const [whole, lead, opener, name] = m;
    const nameEnd = m.index + lead.length + opener.length + name.length;
    const valueStart = m.index + whole.length;
    NESTED.lastIndex = valueStart;
    const nested = NESTED.exec(text);
    // Skipped: a value that is itself a secret assignment (`API_KEY= TOKEN=x`: the next match takes it).
    if (!isSecretName(name) || (nested && isSecretName(nested[1]))) {
      re.lastIndex = Math.max(nameEnd, m.index + 1);
      continue;
    }
    valuePattern.lastIndex = valueStart;
    const value = valuePattern.exec(text)?.[0] ?? '';
    // Already rewritten (`ghp_[REDACTED]`; an unquoted value stops before `]`).
    if (value.includes(REDACTED.slice(0, -1))) {
      re.lastIndex = valueStart + value.length;
      continue;
    }
    out += text.slice(last, valueStart) + quotedRedacted(value);
    last = valueStart + value.length;
    re.lastIndex = last;
  }
  return out + text.slice(last);
}

function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || CAMEL_SECRET_NAME.test(name);
}

/** The format scrubbers, then signatures in URL queries. */
const SCRUBBERS: readonly Scrubber[] = [...TOKEN_SCRUBBERS, QUERY_PARAMETER];


/**
 * Two or more lines holding `NAME=value` to their end (a .env file's content, perhaps
 * quoted after some text): every such value goes.
 */
function redactDotenvBlock(text: string): string {
  const line = /^(.*?(?:^|[\s:])(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*=)(.*)$/;
  const lines = text.split('\n');
  const assignments = lines.filter((l) => line.test(l)).length;
  if (assignments < 2) return text;
  return lines.map((l) => l.replace(line, (_m, head: string, value: string) => (value.trim() === '' ? head : `${head}${REDACTED}`))).join('\n');
}

function applyExtra(text: string, source: string): string {
  let pattern: RegExp;
  try {
    pattern = new RegExp(source, 'g');
  } catch {
    return text;
  }
  let out = '';
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m[0] === '') continue;
    const start = m.index ?? 0;
    const group = m[1];
    const at = typeof group === 'string' && group !== '' ? m[0].indexOf(group) : -1;
    const replaced = at < 0 ? REDACTED : `${m[0].slice(0, at)}${REDACTED}${m[0].slice(at + group.length)}`;
    out += text.slice(last, start) + replaced;
    last = start + m[0].length;
  }
  return out + text.slice(last);
}
