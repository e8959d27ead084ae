// The secret formats hookpolicy redacts beyond its own (engine/host/redact-formats.ts),
// derived at build time from gitleaks' maintained rule set, a pinned copy of its default
// config (third_party/gitleaks/gitleaks.toml; MIT, its LICENSE beside it and in
// dist/THIRD-PARTY-NOTICES.txt). Only data is taken: each rule's id, pattern, keywords and
// entropy. A pattern is kept when it says the same thing in JavaScript (RE2's syntax
// rewritten where it has an equivalent), compiles, and passes the engine's linear-time
// check; the others are dropped, and the build says how many.
import { parse } from 'smol-toml';

/** Rules that match any `name = value` by entropy alone: the log's own name check covers those, with fewer false hits. */
const SKIPPED_IDS = /^generic-/;

/**
 * RE2 to JavaScript: a leading (?i) becomes the i flag, and a case-sensitive part inside
 * it caseless too (a little broader); elsewhere caseless parts are spelt out in both cases;
 * \z is $, \A is ^, (?P<n> is (?<n>. Null: no equivalent (\p, \Q, POSIX classes, (?s)).
 */
export function toJavaScript(re2) {
  let source = re2;
  let flags = '';
  if (source.startsWith('(?i)')) {
    flags = 'i';
    source = source.slice(4);
  }
  if (/\\[QEpP]|\[\[:|\(\?[smU]|\(\?s:/.test(source)) return null;
  source = source.replace(/\(\?P</g, '(?<').replace(/\\z/g, '$').replace(/\\A/g, '^');
  if (flags === 'i') {
    // Case-sensitive parts of a caseless pattern: a little broader, caseless too.
    source = source.replace(/\(\?-i:/g, '(?:');
  } else {
    source = caselessParts(source);
    if (source === null) return null;
  }
  if (/\(\?-?i/.test(source)) return null;
  return { source, flags };
}

/**
 * A pattern with its caseless parts spelt out: `(?i:X)` and a `(?i)` in the middle (to the
 * end of its group) give each letter both cases; `(?-i:X)` inside them stays as written.
 */
function caselessParts(source) {
  let out = '';
  let i = 0;
  while (i < source.length) {
    if (source.startsWith('(?i:', i)) {
      const end = groupEnd(source, i);
      if (end < 0) return null;
      out += `(?:${bothCases(source.slice(i + 4, end))})`;
      i = end + 1;
    } else if (source.startsWith('(?i)', i)) {
      const end = enclosingEnd(source, i);
      out += bothCases(source.slice(i + 4, end));
      i = end;
    } else if (source[i] === '\\') {
      out += source.slice(i, i + 2);
      i += 2;
    } else {
      out += source[i];
      i++;
    }
  }
  return out;
}

/** The index of the `)` closing the group opened at `open`, or -1. */
function groupEnd(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '[') i = classEnd(text, i);
    else if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Where the group around `at` ends (its `)`), or the text's end. */
function enclosingEnd(text, at) {
  let depth = 0;
  for (let i = at + 4; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '[') i = classEnd(text, i);
    else if (text[i] === '(') depth++;
    else if (text[i] === ')') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return text.length;
}

function classEnd(text, open) {
  let i = open + 1;
  if (text[i] === '^') i++;
  if (text[i] === ']') i++;
  while (i < text.length && text[i] !== ']') i += text[i] === '\\' ? 2 : 1;
  return i;
}

/** Letters as [xX] and classes with both letter ranges; escapes, quantifiers and (?-i:...) as written. */
function bothCases(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      out += c + (text[i + 1] ?? '');
      i++;
    } else if (text.startsWith('(?-i:', i)) {
      const end = groupEnd(text, i);
      out += `(?:${text.slice(i + 5, end)})`;
      i = end;
    } else if (text.startsWith('(?', i)) {
      // (?: (?= (?! (?<name>: kept as written up to the group's own text
      const close = text[i + 2] === '<' && text[i + 3] !== '=' && text[i + 3] !== '!' ? text.indexOf('>', i) : i + 2;
      out += text.slice(i, close + 1);
      i = close;
    } else if (c === '[') {
      const end = classEnd(text, i);
      const cls = text.slice(i + 1, end);
      // Each letter and range again in the other case (escapes such as \\w left out of the copy).
      const other = cls.replace(/^\^/, '').replace(/\\./g, '').replace(/[a-zA-Z]/g, (ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()));
      out += `[${cls}${other}]`;
      i = end;
    } else if (c === '{') {
      const end = text.indexOf('}', i);
      out += text.slice(i, end + 1);
      i = end;
    } else if (/[a-zA-Z]/.test(c)) {
      out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * The formats of a gitleaks config: [{ id, source, flags, keywords, entropy }], and the ids
 * left out with why.
 * @example deriveSecretFormats(toml, (source, flags) => false).formats[0].id // '1password-secret-key'
 */
export function deriveSecretFormats(tomlText, isSuperLinear) {
  const config = parse(tomlText);
  const formats = [];
  const skipped = [];
  for (const rule of config.rules ?? []) {
    if (typeof rule.regex !== 'string' || SKIPPED_IDS.test(rule.id)) {
      skipped.push([rule.id, 'no pattern, or a generic one']);
      continue;
    }
    const keywords = (rule.keywords ?? []).map((k) => String(k).toLowerCase()).filter((k) => k !== '');
    if (keywords.length === 0) {
      skipped.push([rule.id, 'no keyword to look for first']);
      continue;
    }
    const js = toJavaScript(rule.regex);
    if (!js) {
      skipped.push([rule.id, 'RE2 syntax without a JavaScript equivalent']);
      continue;
    }
    try {
      new RegExp(js.source, `${js.flags}g`);
    } catch (e) {
      skipped.push([rule.id, `does not compile in JavaScript: ${e.message}`]);
      continue;
    }
    if (isSuperLinear(js.source, js.flags)) {
      skipped.push([rule.id, 'not linear-time']);
      continue;
    }
    formats.push({ id: rule.id, source: js.source, flags: js.flags, keywords, ...(typeof rule.entropy === 'number' ? { entropy: rule.entropy } : {}) });
  }
  return { formats, skipped };
}
