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

const HEADING = /^#{1,6}[ \t]+(.*?)[ \t#]*$/;

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
    const m = fenced ? null : HEADING.exec(line);
    if (m) {
      close(current, text, offset, sections);
      current = { heading: m[1], body: '', start: offset, end: 0 };
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

/**
 * What changed from `before` to `after`, section by section, in `after`'s order then the
 * removed ones: `- ADDED: heading` and `- CHANGED: heading` followed by the new body
 * (indented), `- REMOVED: heading`. '' when nothing changed. The text before the first
 * heading is named `(top)`.
 * @example sectionsDelta('## A\nx', '## A\ny\n## B\nz') // '- CHANGED: A\n  y\n- ADDED: B\n  z'
 */
export function sectionsDelta(before: string, after: string): string {
  const old = byHeading(splitSections(before));
  const now = splitSections(after);
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const s of now) {
    seen.add(s.heading);
    const was = old.get(s.heading);
    if (was === s.body) continue;
    lines.push(`- ${was === undefined ? 'ADDED' : 'CHANGED'}: ${label(s.heading)}`);
    if (s.body !== '') lines.push(indent(s.body));
  }
  for (const heading of old.keys()) if (!seen.has(heading)) lines.push(`- REMOVED: ${label(heading)}`);
  return lines.join('\n');
}

/**
 * The headings of the sections that differ between two versions (added, changed or
 * removed), each once, in `after`'s order then the removed ones.
 * @example changedSections('## A\nx\n## B\ny', '## A\nx\n## B\nz') // ['B']
 */
export function changedSections(before: string, after: string): string[] {
  const old = byHeading(splitSections(before));
  const changed: string[] = [];
  const seen = new Set<string>();
  for (const s of splitSections(after)) {
    seen.add(s.heading);
    if (old.get(s.heading) !== s.body && !changed.includes(s.heading)) changed.push(s.heading);
  }
  for (const heading of old.keys()) if (!seen.has(heading) && !changed.includes(heading)) changed.push(heading);
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

function byHeading(sections: readonly Section[]): Map<string, string> {
  const map = new Map<string, string>();
  // A repeated heading keeps every body, so a change to either is seen.
  for (const s of sections) map.set(s.heading, map.has(s.heading) ? `${map.get(s.heading)}\n\0\n${s.body}` : s.body);
  return map;
}

function label(heading: string): string {
  return heading === '' ? '(top)' : heading;
}

function indent(body: string): string {
  return body.split('\n').map((line) => (line === '' ? '' : `  ${line}`)).join('\n');
}
