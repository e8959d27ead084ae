/**
 * Secrets out of the decision log: every string of a record is scrubbed before it is
 * written to the JSONL file or POSTed to the webhook. Known key formats keep their
 * public type prefix (`AKIA[REDACTED]`, `ghp_[REDACTED]`) so a reader still sees what
 * leaked; assignments keep their name (`API_KEY=[REDACTED]`).
 */

/** What replaces a secret. */
export const REDACTED = '[REDACTED]';

interface Scrubber {
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
  /** Texts that hold none of these (lower-cased when `caseless`) cannot match: the pattern is not even compiled. */
  hints: readonly string[];
  caseless?: boolean;
}

const keep = (prefix: string) => `${prefix}${REDACTED}`;

/**
 * Names that say their value is a secret: a strong word anywhere, or a generic word as the
 * last `_`/`-` part (a number after it allowed): `DB_PASS`, `MY_SESSION`, `x-auth`, `KEY_2`.
 * Before another part the generic word only qualifies it (`SESSION-CTX-MARKER`, `AUTH-MODE`, `KEY_ID`).
 */
const SECRET_NAME = /password|passwd|passphrase|secret|token|api_?key|access_?key|private_?key|credential|(?:^|[_-])(?:key|pass|pwd|auth|session|cookie|pat)(?:[_-]\d+)?$/i;

/** A text without any of these words (in any case) cannot hold a secret assignment or flag. */
const SECRET_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'credential', 'auth', 'session', 'cookie', 'pat'];

/** `NAME=value`, `NAME: value`, `"name": "value"`; the lead keeps `xNAME=` from matching. */
const ASSIGNMENT = /(^|[\s;&|(,{\['"`])(["']?)([A-Za-z_][A-Za-z0-9_.-]*)\2([ \t]*[=:][ \t]*)("[^"\n]*"?|'[^'\n]*'?|[^\s;&|,}\]'"`]+)/g;

/** `--name value` and `--name=value` on a command line. */
const FLAG = /(^|\s)(--?)([A-Za-z][A-Za-z0-9_-]*)(=|[ \t]+)("[^"\n]*"?|'[^'\n]*'?|[^\s;&|'"`-][^\s;&|'"`]*)/g;

/** Key formats that are secret whatever surrounds them; the prefix kept is public. */
const TOKEN_SCRUBBERS: readonly Scrubber[] = [
  // PEM private keys, also a block cut off before its END line.
  {
    pattern: /(-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g,
    replace: (_m, begin: string, _b: string, end: string) => `${begin}${REDACTED}${end}`,
    hints: ['PRIVATE KEY'],
  },
  { pattern: /\b(AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b/g, replace: (_m, p: string) => keep(p), hints: ['AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA'] },
  { pattern: /\b(gh[pousr]_)[A-Za-z0-9]{36,}\b/g, replace: (_m, p: string) => keep(p), hints: ['p_', 'o_', 'u_', 's_', 'r_'] },
  { pattern: /\b(github_pat_)[A-Za-z0-9_]{22,}/g, replace: (_m, p: string) => keep(p), hints: ['github_pat_'] },
  { pattern: /\b(xox[baprse]-)[A-Za-z0-9-]{10,}/g, replace: (_m, p: string) => keep(p), hints: ['xox'] },
  { pattern: /\b(sk-)[A-Za-z0-9_-]{16,}/g, replace: (_m, p: string) => keep(p), hints: ['sk-'] },
  { pattern: /\b([sr]k_(?:live|test)_)[A-Za-z0-9]{16,}/g, replace: (_m, p: string) => keep(p), hints: ['k_live_', 'k_test_'] },
  { pattern: /\b(AIza)[0-9A-Za-z_-]{35}\b/g, replace: (_m, p: string) => keep(p), hints: ['AIza'] },
  { pattern: /\b(eyJ)[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: (_m, p: string) => keep(p), hints: ['eyJ'] },
  { pattern: /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi, replace: (_m, p: string, s: string) => `${p}${s}${REDACTED}`, hints: ['bearer', 'basic', 'token'], caseless: true },
  // Credentials in a URL: scheme://user:password@host.
  { pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s/@]+@/gi, replace: (_m, p: string) => `${p}${REDACTED}@`, hints: ['://'] },
];

/**
 * `text` with secrets replaced by [REDACTED]: known key formats, values of assignments
 * whose name looks secret, every value of a dotenv-style block, and each match of the
 * `extra` patterns (JavaScript regex sources; when one has a capture group, only the
 * first group is replaced). An extra pattern that does not compile is skipped.
 * @example redactText('export API_KEY=abc123 && deploy') // 'export API_KEY=[REDACTED] && deploy'
 */
export function redactText(text: string, extra: readonly string[] = []): string {
  let out = text.includes('\n') ? redactDotenvBlock(text) : text;
  for (const s of TOKEN_SCRUBBERS) {
    if (hinted(s, out)) out = out.replace(s.pattern, s.replace as (m: string, ...a: unknown[]) => string);
  }
  if (hasSecretWord(out.toLowerCase())) {
    out = redactAssignments(out, ASSIGNMENT);
    out = redactAssignments(out, FLAG);
  }
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
  return redactValue(value, extra, 0) as T;
}

/** False when no scrubber of redactText could change any part of `text`. */
function mayHoldSecret(text: string): boolean {
  return text.includes('\n') || hasSecretWord(text.toLowerCase()) || TOKEN_SCRUBBERS.some((s) => hinted(s, text));
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

function redactValue(value: unknown, extra: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return redactText(value, extra);
  // Records are shallow; the cap only guards against a pathological value.
  if (depth > 50 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, extra, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, extra, depth + 1)]));
}

/**
 * Replaces the value of each match whose name looks secret. A match whose name does not
 * is skipped past its name only, so `note: API_KEY=x` still reaches `API_KEY=x`.
 */
function redactAssignments(text: string, pattern: RegExp): string {
  const re = new RegExp(pattern.source, 'g');
  let out = '';
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    // Groups: lead, opening quote or dashes, name, separator, value.
    const [whole, lead, opener, name, , value] = m;
    const nameEnd = m.index + lead.length + opener.length + name.length;
    // Skipped: a value already rewritten (`ghp_[REDACTED]`; the value pattern stops before
    // `]`), and one that is itself a secret assignment (`API_KEY= TOKEN=x`: the next match takes it).
    const nested = /^([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*[=:]/.exec(value);
    if (!SECRET_NAME.test(name) || value.includes(REDACTED.slice(0, -1)) || (nested && SECRET_NAME.test(nested[1]))) {
      re.lastIndex = Math.max(nameEnd, m.index + 1);
      continue;
    }
    out += text.slice(last, m.index) + whole.slice(0, whole.length - value.length) + quoted(value);
    last = m.index + whole.length;
    re.lastIndex = last;
  }
  return out + text.slice(last);
}

function quoted(value: string): string {
  const q = value[0];
  return q === '"' || q === "'" ? `${q}${REDACTED}${value.endsWith(q) && value.length > 1 ? q : ''}` : REDACTED;
}

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
