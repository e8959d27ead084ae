/**
 * Bash's `$'...'` quoting: the text its backslash escapes stand for, as bash decodes them
 * (in a UTF-8 locale). `echo x > $'.e\x6ev'` writes `.env`, so a word in this quoting is
 * judged by what it decodes to, not left unknown.
 */

const SIMPLE: Record<string, string> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/**
 * The decoded text of a `$'...'` body, or null when bash's reading of it is not certain:
 * a `\c` control escape, or a NUL (bash ends the word there).
 * @example decodeAnsiC('.e\\x6ev') // '.env'
 * @example decodeAnsiC('a\\nb') // 'a\nb'
 */
export function decodeAnsiC(body: string): string | null {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e in SIMPLE) {
      out += SIMPLE[e];
      continue;
    }
    if (e === 'c') return null;
    const code = numeric(body, i);
    if (code === undefined) {
      // An unknown escape stays as written, backslash included.
      out += `\\${e}`;
      continue;
    }
    if (code.value === 0 || code.value > 0x10ffff) return null;
    out += String.fromCodePoint(code.value);
    i = code.end - 1;
  }
  return out;
}

/** The code of an octal (`\NNN`), hex (`\xHH`) or Unicode (`\uHHHH`, `\UHHHHHHHH`) escape at `at`, or undefined. */
function numeric(body: string, at: number): { value: number; end: number } | undefined {
  const e = body[at];
  const digits = (start: number, max: number, pattern: RegExp) => {
    let end = start;
    while (end < body.length && end - start < max && pattern.test(body[end])) end++;
    return end;
  };
  if (/[0-7]/.test(e)) {
    const end = digits(at, 3, /[0-7]/);
    // Bash keeps the low 8 bits of an octal escape: \777 is \377.
    return { value: parseInt(body.slice(at, end), 8) & 0xff, end };
  }
  const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
  if (width === 0) return undefined;
  const end = digits(at + 1, width, /[0-9a-fA-F]/);
  if (end === at + 1) return undefined;
  return { value: parseInt(body.slice(at + 1, end), 16), end };
}
