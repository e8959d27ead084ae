/**
 * Markdown documents as named sections, for rules about shared documents: what changed
 * between two versions of a global context (seed 001's delta protocol), and which section
 * an edit touches (section-per-role team memory). Pure: text in, text out.
 */

export interface Section {
  /** The heading's text without its hashes; '' for the text before the first heading. */
  heading: string;
  /** Everything under the heading up to the next one, trimmed at both ends. */
  body: string;
  /** Offsets of the section (heading line included) in the document. */
  start: number;
  end: number;
}

/**
 * A heading line's text, or null: one to six `#`, a space or tab, the text, without the
 * spaces, tabs and `#` around it; a line with a line terminator (U+2028) is none. Read by
 * hand: the regex it replaces (`^#{1,6}[ \t]+(.*?)[ \t#]*$`) took seconds, cubic in the
 * line's length, on `# ` and 2,000 spaces before a U+2028, in a file the agent writes.
 * @example headingOf('## Notes ##') // 'Notes'
 */
export function headingOf(line: string): string | null {
  let start = 0;
  while (start < line.length && line.charCodeAt(start) === 0x23) start++;
  if (start === 0 || start > 6 || !isBlank(line.charCodeAt(start))) return null;
  for (let i = start; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) return null;
  }
  while (isBlank(line.charCodeAt(start))) start++;
  let end = line.length;
  while (end > start && (isBlank(line.charCodeAt(end - 1)) || line.charCodeAt(end - 1) === 0x23)) end--;
  return line.slice(start, end);
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/**
 * The document's sections in order; the text before the first heading is the section ''
 * (left out when empty). Headings inside ``` fences are text.
 * @example splitSections('v1\n## A\none\n## B\ntwo').map((s) => s.heading) // ['', 'A', 'B']
 */
export function splitSections(doc: string): Section[] {
  const text = doc.replace(/\r\n?/g, '\n');
  const sections: Section[] = [];
  let current: Section = { heading: '', body: '', start: 0, end: 0 };
  let fenced = false;
  let offset = 0;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : headingOf(line);
    if (heading !== null) {
      close(current, text, offset, sections);
      current = { heading, body: '', start: offset, end: 0 };
    }
    offset += line.length + 1;
  }
  close(current, text, text.length, sections);
  return sections;
}

function close(section: Section, text: string, end: number, into: Section[]): void {
  const bodyStart = section.heading === '' && section.start === 0 ? 0 : text.indexOf('\n', section.start) + 1 || end;
  section.end = end;
  section.body = text.slice(Math.min(bodyStart, end), end).trim();
  if (section.heading !== '' || section.body !== '') into.push(section);
}

/** The first line of a digest: a `before` that starts with one is read as a digest, not as a document (v1: no fields). */
const DIGEST_MARK = '#sections-digest v2';
const DIGEST_V1 = '#sections-digest v1';
/** A field's value as a digest keeps it (longer ones are cut, and compared by hash). */
const FIELD_VALUE_MAX = 120;

/**
 * A short stand-in for a document: one line per section, its body's hash and its heading,
 * then a line per `key: value` field of the section (tab, key, tab, value). What
 * `sectionsDelta` and `changedSections` need of an earlier version (a field's old value
 * included, for `old → new`), at a fraction of its size (a stored record's text is cut at
 * 4,000 characters; a global context is larger).
 * @example sectionsDigest('## A\nowner: ba\nnotes') // '#sections-digest v2\n<hash>\tA\n\towner\tba'
 */
export function sectionsDigest(doc: string): string {
  const lines = [DIGEST_MARK];
  for (const s of splitSections(doc)) {
    lines.push(`${bodyHash(s.body)}\t${s.heading}`);
    for (const [key, value] of fieldsOf(s.body)) lines.push(`\t${key}\t${digestValue(value)}`);
  }
  return lines.join('\n');
}

/** A field's value as a digest holds it: as written, or cut with its hash when longer. */
function digestValue(value: string): string {
  return value.length <= FIELD_VALUE_MAX ? value : `${value.slice(0, FIELD_VALUE_MAX)}… #${bodyHash(value)}`;
}

/** `key: value` lines of a section body (a list item's `- ` allowed), by key, last one wins. */
function fieldsOf(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of body.split('\n')) {
    const m = /^\s*(?:[-*]\s+)?([A-Za-z_][\w .-]{0,58}?)\s*:\s+(\S.*?)\s*$/.exec(line);
    if (m && !m[2].includes('\t')) fields.set(m[1], m[2]);
  }
  return fields;
}

/**
 * What share of the sections changed from `before` to `after` (added, changed or
 * removed, over every section of either), 0 to 1: seed 001 sends the whole context
 * instead of a delta from half on.
 * @example changedShare('## A\nx\n## B\ny', '## A\nx\n## B\nz') // 0.5
 */
export function changedShare(before: string, after: string): number {
  const old = keysByHeading(before, isDigest(before));
  const keys = keysByHeading(after, isDigest(before));
  const all = new Set([...old.keys(), ...keys.keys()]);
  return all.size === 0 ? 0 : changedSections(before, after).length / all.size;
}

/**
 * What changed from `before` to `after`, section by section, in `after`'s order then the
 * removed ones: `- ADDED: heading` and `- CHANGED: heading` followed by the new body
 * (indented), `- REMOVED: heading`. '' when nothing changed. The text before the first
 * heading is named `(top)`.
 * @example sectionsDelta('## A\nx', '## A\ny\n## B\nz') // '- CHANGED: A\n  y\n- ADDED: B\n  z'
 */
export function sectionsDelta(before: string, after: string): string {
  const old = keysByHeading(before, isDigest(before));
  const now = splitSections(after);
  const keys = keysByHeading(after, isDigest(before));
  const oldFields = fieldsByHeading(before);
  const lines: string[] = [];
  for (const heading of keys.keys()) {
    const was = old.get(heading);
    if (was === keys.get(heading)) continue;
    const body = now.filter((s) => s.heading === heading && s.body !== '').map((s) => s.body).join('\n');
    const fieldLines = was === undefined ? null : fieldDelta(heading, oldFields?.get(heading), body);
    if (fieldLines) {
      lines.push(...fieldLines);
      continue;
    }
    lines.push(`- ${was === undefined ? 'ADDED' : 'CHANGED'}: ${label(heading)}`);
    if (body !== '') lines.push(indent(body));
  }
  for (const heading of old.keys()) if (!keys.has(heading)) lines.push(`- REMOVED: ${label(heading)}`);
  return lines.join('\n');
}

/**
 * A changed section as seed 001 writes it, field by field: `- ADDED: Section.key: value`,
 * `- CHANGED: Section.key: old → new`, `- REMOVED: Section.key`. Null when the section is
 * not fields alone on both sides (or the old fields are not known): then the section's
 * new text is the delta.
 */
function fieldDelta(heading: string, was: Map<string, string> | undefined, body: string): string[] | null {
  if (!was) return null;
  const now = fieldsOf(body);
  const prose = body.split('\n').filter((l) => l.trim() !== '' && !/^\s*(?:[-*]\s+)?[A-Za-z_][\w .-]{0,58}?\s*:\s+\S/.test(l));
  if (now.size === 0 || was.size === 0 || prose.length > 0) return null;
  const name = (key: string) => `${label(heading)}.${key}`;
  const lines: string[] = [];
  for (const [key, value] of now) {
    const before = was.get(key);
    if (before === undefined) lines.push(`- ADDED: ${name(key)}: ${value}`);
    else if (before !== digestValue(value) && before !== value) lines.push(`- CHANGED: ${name(key)}: ${before} → ${value}`);
  }
  for (const key of was.keys()) if (!now.has(key)) lines.push(`- REMOVED: ${name(key)}`);
  return lines.length > 0 ? lines : null;
}

/** The fields of each section of a document or a v2 digest; null for a v1 digest (it kept none). */
function fieldsByHeading(text: string): Map<string, Map<string, string>> | null {
  const map = new Map<string, Map<string, string>>();
  if (text === DIGEST_V1 || text.startsWith(`${DIGEST_V1}\n`)) return null;
  if (isDigest(text)) {
    let current: Map<string, string> | null = null;
    for (const line of text.split('\n').slice(1)) {
      if (line.startsWith('\t')) {
        const [, key, value] = line.split('\t');
        current?.set(key, value ?? '');
      } else {
        const heading = line.slice(line.indexOf('\t') + 1);
        current = map.get(heading) ?? new Map();
        map.set(heading, current);
      }
    }
    return map;
  }
  for (const section of splitSections(text)) {
    const fields = map.get(section.heading) ?? new Map<string, string>();
    for (const [k, v] of fieldsOf(section.body)) fields.set(k, digestValue(v));
    map.set(section.heading, fields);
  }
  return map;
}

/**
 * The headings of the sections that differ between two versions (added, changed or
 * removed), each once, in `after`'s order then the removed ones. `before` may be a digest.
 * @example changedSections('## A\nx\n## B\ny', '## A\nx\n## B\nz') // ['B']
 */
export function changedSections(before: string, after: string): string[] {
  const old = keysByHeading(before, isDigest(before));
  const keys = keysByHeading(after, isDigest(before));
  const changed = [...keys.keys()].filter((heading) => old.get(heading) !== keys.get(heading));
  for (const heading of old.keys()) if (!keys.has(heading)) changed.push(heading);
  return changed;
}

/**
 * The heading of the one section that holds all of `snippet` (its only occurrence in the
 * document); null when the snippet is empty, absent, found more than once, or runs across
 * a heading: an edit that cannot be placed in one section belongs to none.
 * @example sectionOf('## lead\na\n## ba\nb', 'b') // 'ba'
 */
export function sectionOf(doc: string, snippet: string): string | null {
  const text = doc.replace(/\r\n?/g, '\n');
  const wanted = snippet.replace(/\r\n?/g, '\n');
  if (wanted === '') return null;
  const at = text.indexOf(wanted);
  if (at < 0 || text.indexOf(wanted, at + 1) >= 0) return null;
  for (const s of splitSections(text)) {
    if (at >= s.start && at + wanted.length <= s.end) {
      // The heading line itself is not the section's to edit: renaming it moves the section.
      const headingEnd = s.heading === '' && s.start === 0 ? s.start : text.indexOf('\n', s.start) + 1;
      return at >= headingEnd ? s.heading : null;
    }
  }
  return null;
}

/**
 * Each heading's key, in document order: its bodies (or their hashes, `hashed`) joined, so
 * that a change to either of two sections with the same heading is seen. A digest gives
 * its hashes as they are.
 */
function keysByHeading(text: string, hashed: boolean): Map<string, string> {
  const map = new Map<string, string>();
  const add = (heading: string, key: string) => map.set(heading, map.has(heading) ? `${map.get(heading)}\n\0\n${key}` : key);
  if (isDigest(text)) {
    for (const line of text.split('\n').slice(1)) {
      const tab = line.indexOf('\t');
      // A field line (a leading tab) belongs to the section line above it.
      if (tab > 0) add(line.slice(tab + 1), line.slice(0, tab));
    }
    return map;
  }
  for (const s of splitSections(text)) add(s.heading, hashed ? bodyHash(s.body) : s.body);
  return map;
}

function isDigest(text: string): boolean {
  return [DIGEST_MARK, DIGEST_V1].some((mark) => text === mark || text.startsWith(`${mark}\n`));
}

/** 53 bits of a body (cyrb53): a change to a section is seen unless it collides by chance. */
function bodyHash(body: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function label(heading: string): string {
  return heading === '' ? '(top)' : heading;
}

function indent(body: string): string {
  return body.split('\n').map((line) => (line === '' ? '' : `  ${line}`)).join('\n');
}
