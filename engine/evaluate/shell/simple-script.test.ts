import fc from 'fast-check';
import { fcParams } from '../../../test/support/fuzz-config';
import { FdTable } from './fds';
import { child, list, loadShellSyntax, ShellSyntaxError, text, type ShellSyntax, type ShNode } from './parser';
import { simpleScript, type SimpleCommand, type SimpleJoin, type SimpleRedirect, type SimpleWord } from './simple-script';
import { walkScript, walkSimple, type WalkOptions, type WalkResult } from './walk';
import type { WordPart } from './words';
import { shellWrites } from './writes';

const sh = loadShellSyntax();
const options: WalkOptions = { home: '/h', projectRoot: '/p' };

/** The parser's reading in the scanner's shape; 'other' when it is not a list of simple commands. */
function parserReading(syntax: ShellSyntax, command: string): SimpleCommand[] | 'error' | 'other' {
  let file: ShNode;
  try {
    file = syntax.parse(command);
  } catch (err) {
    if (err instanceof ShellSyntaxError) return 'error';
    throw err;
  }
  const out: SimpleCommand[] = [];
  class Other extends Error {}
  const parts = (word: ShNode | null): SimpleWord => list(word, 'Parts').map((p): WordPart => {
    const type = syntax.nodeType(p);
    if (type === 'Lit') return { quote: '', raw: text(p, 'Value') };
    if (type === 'SglQuoted' && p.Dollar !== true) return { quote: "'", raw: text(p, 'Value') };
    if (type === 'DblQuoted' && p.Dollar !== true && list(p, 'Parts').every((q) => syntax.nodeType(q) === 'Lit')) {
      return { quote: '"', raw: list(p, 'Parts').map((q) => text(q, 'Value')).join('') };
    }
    throw new Other();
  });
  const redirect = (r: ShNode): SimpleRedirect => {
    const hdoc = child(r, 'Hdoc');
    const body = hdoc ? parts(hdoc) : null;
    if (body && body.some((p) => p.quote !== '')) throw new Other();
    return { op: syntax.operator(r.Op), n: text(child(r, 'N'), 'Value'), word: parts(child(r, 'Word')), ...(body ? { body: body.map((p) => p.raw).join('') } : {}) };
  };
  const stmt = (s: ShNode | null, join: SimpleJoin): void => {
    if (!s || s.Negated === true || s.Background === true || s.Coprocess === true) throw new Other();
    const cmd = child(s, 'Cmd');
    if (cmd && syntax.nodeType(cmd) === 'BinaryCmd') {
      const op = syntax.operator(cmd.Op);
      if (list(s, 'Redirs').length > 0 || !['&&', '||', '|'].includes(op)) throw new Other();
      stmt(child(cmd, 'X'), join);
      return stmt(child(cmd, 'Y'), op as SimpleJoin);
    }
    if (cmd && syntax.nodeType(cmd) !== 'CallExpr') throw new Other();
    const assigns = list(cmd, 'Assigns').map((a) => {
      if (a.Append === true || a.Naked === true || child(a, 'Index') || child(a, 'Array')) throw new Other();
      return text(child(a, 'Name'), 'Value');
    });
    out.push({ join, assigns, words: list(cmd, 'Args').map(parts), redirects: list(s, 'Redirs').map(redirect) });
  };
  try {
    list(file, 'Stmts').forEach((s, i) => stmt(s, i === 0 ? '' : ';'));
  } catch (err) {
    if (err instanceof Other) return 'other';
    throw err;
  }
  return out;
}

/** Everything a walk returns, descriptors included, in order (the reasons' order is the message's). */
function comparable(r: WalkResult) {
  const fds = (t: FdTable) => ({ all: t.allFiles(), byFd: Array.from({ length: 16 }, (_, fd) => t.get(fd)), unnumbered: t.unnumbered, unknown: t.unknown });
  return { writes: r.writes.map((w) => ({ target: w.target, cwd: w.cwd, by: w.by, fds: fds(w.fds) })), unsure: r.unsure };
}

/** The fast path's verdict on a command: declined, or the same reading and the same walk as the parser's. */
function check(command: string): 'declined' | 'same' {
  const simple = simpleScript(command);
  if (simple === null) return 'declined';
  expect({ command, reading: parserReading(sh, command) }).toEqual({ command, reading: simple });
  // With and without a home folder (`~`), in the project's root and below it, with a known command.
  for (const [cwd, walkOptions] of [['/p', options], ['/p/sub', { projectRoot: '/p', known: [['npm', 'test']] }]] as const) {
    const fast = walkSimple(simple, cwd, walkOptions);
    if (fast === null) continue;
    expect({ command, walk: comparable(fast) }).toEqual({ command, walk: comparable(walkScript(sh, command, cwd, walkOptions)) });
  }
  return 'same';
}

const word = (...raws: string[]): SimpleWord => raws.map((raw) => ({ quote: '', raw }));

describe('simpleScript reads the subset', () => {
  test.each<[string, Array<[SimpleJoin, string[], string[]]>]>([
    // [join, words (their raw text joined), redirections (n op word / body)]
    ['git status', [['', ['git', 'status'], []]]],
    ['ls -la src && git status --short', [['', ['ls', '-la', 'src'], []], ['&&', ['git', 'status', '--short'], []]]],
    ['git log --oneline | head -5', [['', ['git', 'log', '--oneline'], []], ['|', ['head', '-5'], []]]],
    ['rm -rf build; ls\nnpm test', [['', ['rm', '-rf', 'build'], []], [';', ['ls'], []], [';', ['npm', 'test'], []]]],
    ['a || b', [['', ['a'], []], ['||', ['b'], []]]],
    ['ls;', [['', ['ls'], []]]],
    ['ls\n\n', [['', ['ls'], []]]],
    ['', []],
    ['echo hi > out.txt', [['', ['echo', 'hi'], ['>out.txt']]]],
    ['echo "a">f', [['', ['echo', '"a'], ['>f']]]],
    ['echo x2>f', [['', ['echo', 'x2'], ['>f']]]],
    ['echo 2>f', [['', ['echo'], ['2>f']]]],
    ['echo "2">f', [['', ['echo', '"2'], ['>f']]]],
    ['echo 2&>f', [['', ['echo', '2'], ['&>f']]]],
    ['make 2>&1 | tee log', [['', ['make'], ['2>&1']], ['|', ['tee', 'log'], []]]],
    ['a >| f >> g &>> h <> i <&3 >&- 3<f', [['', ['a'], ['>|f', '>>g', '&>>h', '<>i', '<&3', '>&-', '3<f']]]],
    ['cat <<< "x y"', [['', ['cat'], ['<<<"x y']]]],
    ['git commit -m "fix: the parser\'s path"', [['', ['git', 'commit', '-m', '"fix: the parser\'s path'], []]]],
    ["echo 'a $b `c`' \"d \\\" e\"", [['', ['echo', "'a $b `c`", '"d \\" e'], []]]],
    ['A=1 B="x y" ls', [['', ['ls'], []]]],
    ['echo a#b # a comment', [['', ['echo', 'a#b'], []]]],
    ['ls \\\n  -la \\\n  src', [['', ['ls', '-la', 'src'], []]]],
    ['npm test &&\n  git status', [['', ['npm', 'test'], []], ['&&', ['git', 'status'], []]]],
    ["cat <<'EOF' > notes.md\n# $Notes `x`\nEOF", [['', ['cat'], ["<<'EOF\n# $Notes `x`\n", '>notes.md']]]],
    ['cat <<EOF | tee f\nplain text\nEOF\nls', [['', ['cat'], ['<<EOF\nplain text\n']], ['|', ['tee', 'f'], []], [';', ['ls'], []]]],
    ['cat <<-EOF\nno tabs\nEOF', [['', ['cat'], ['<<-EOF\nno tabs\n']]]],
    ['cat <<A <<"B"; echo\na\nA\nb\nB\n', [['', ['cat'], ['<<A\na\n', '<<"B\nb\n']], [';', ['echo'], []]]],
    ['[ -f x ] && cat x', [['', ['[', '-f', 'x', ']'], []], ['&&', ['cat', 'x'], []]]],
    ['cat ~/x *.ts a\\ b', [['', ['cat', '~/x', '*.ts', 'a\\ b'], []]]],
  ])('%j', (command, expected) => {
    const show = (w: SimpleWord) => w.map((p) => p.quote + p.raw).join('');
    const got = simpleScript(command);
    expect(got?.map((c) => [c.join, c.words.map(show), c.redirects.map((r) => `${r.n}${r.op}${show(r.word)}${r.body !== undefined ? `\n${r.body}` : ''}`)])).toEqual(expected);
    expect(check(command)).toBe('same');
  });

  test('assignments before the command are names; after it, words', () => {
    expect(simpleScript('A=1 b=\'x\' ls c=2')?.[0]).toEqual({ join: '', assigns: ['A', 'b'], words: [word('ls'), word('c=2')], redirects: [] });
    expect(simpleScript('> f A=1 cmd')?.[0].assigns).toEqual(['A']);
  });
});

describe('simpleScript leaves the rest to the parser', () => {
  test.each([
    // expansions and syntax
    '$CMD x', 'echo "$HOME"', 'echo "`id`"', '`echo rm` x', "echo $'a'", 'echo ${a}', 'rm {a,b}', 'echo !x', '(ls)', '{ ls; }', 'ls &', 'ls |& cat',
    'echo <(ls)', 'echo x >(cat)', 'ls;;', 'ls ; ;', ';ls', '&& ls', 'ls &&', 'ls |', 'ls\n;ls',
    // keywords and the parser's own nodes
    'if true', 'time ls', 'export x=1', 'declare -n x', 'let x=1', '[[ -f x ]]', ']] x', 'A=1 export x', 'for x in a',
    // words the parser reads otherwise than bash, or splits
    "echo ''#; rm -rf src", 'echo "x"# ; rm src', 'echo a[1]=b', 'a[1]=b cmd', '"A"=b cmd', 'A+=b cmd', 'echo x >2>f', 'echo x > #f', 'echo x >',
    'echo caf\u00e9', 'echo a\u00a0b', 'echo \\\u00e9',
    // line continuations inside words, in double quotes, before a here-document's body
    'ec\\\nho x', 'echo "a\\\nb"', 'echo a\\', 'cat <<EOF \\\n> f\nx\nEOF',
    // carriage returns, other controls, half surrogate pairs
    'echo x\r\nrm -rf src', 'echo x \\\r\nrm y', 'echo x \r# ; rm src', 'echo "a\r"', 'echo a\vb', 'echo a\x01b', 'echo "\ud800"',
    // here-documents: unclosed, expanding, tab-stripped, empty, odd delimiters, bodies after an operator
    'cat <<EOF', 'cat <<EOF\nx', 'cat <<EOF\nx\nEOF \n', 'cat <<EOF\n$x\nEOF', 'cat <<EOF\n`x`\nEOF', 'cat <<EOF\na\\\nEOF\nrm y\nEOF',
    'cat <<-EOF\n\tx\n\tEOF', 'cat <<EOF\nEOF', "cat <<'E F'\nx\nE F", 'cat <<E"O"F\nx\nEOF', 'cat <<\\EOF\nx\nEOF', 'cat <<EOF |\nx\nEOF\ngrep y',
    "cat <<EOF 'a\nb'\nx\nEOF", 'cat <<1>f\nx\n1', 'cat <<EOF\r\nx\r\nEOF\r\n',
  ])('%j', (command) => {
    expect(simpleScript(command)).toBeNull();
  });
});

describe('what the fast path finds is what the parser finds', () => {
  test.each([
    'echo done > out.txt', "cat <<'EOF' > notes.md\nhello\nEOF", 'echo x 1<src/a.ts >/dev/stdout', 'exec 3<src/a.ts; echo x >/dev/fd/3',
    'exec 4<src/a.ts; exec 5<&4; echo x >/dev/fd/5', 'exec >f; ls | tee /dev/stdout', 'cat src/a.ts | tee /dev/stdin', '< src/a.ts tee /dev/stdin',
    'echo x >/proc/self/cwd/src/a.ts', 'cd sub && echo x > f', 'cd sub || echo x > f', 'A=1 PATH=/x ls > f', 'bash <<EOF\nrm x\nEOF',
    'cat <<EOF | bash\nrm x\nEOF', 'python3 <<EOF\nprint(1)\nEOF', 'echo x >& f', 'ls 2>&1 >f', 'cp a b 2>/dev/null', 'sort -o out.txt in.txt < x',
    'echo x > ~/f', 'echo x > ~u/f', 'echo x > *.ts', 'dd if=a of=~/x', 'tee "a b" \'c d\' < /dev/null', 'echo x\\ y > a\\ b',
  ])('%j', (command) => {
    expect(check(command)).toBe('same');
  });

  test('the commands the bench times take the fast path', () => {
    for (const command of ['echo done > mission/out.txt', "cat <<'EOF' > mission/notes.md\n# Notes\nThe build passed; next: tag the release.\nEOF"]) {
      expect(shellWrites(command, { cwd: '/p', projectRoot: '/p' }).via).toBe('precheck');
    }
  });
});

describe('property: the fast path declines, or reads and walks a command as the parser does', () => {
  const inside = [
    'echo', 'cat', 'ls', 'git', 'status', 'diff', '--output=o.txt', 'x', 'src/a.ts', '-f', '-i', '-o', 'dst', 'rm', 'tee', '-a', 'cp', 'mv', 'touch', 'sed', 'sort',
    'dd', 'of=f', 'of=~/x', 'bash', 'sh', '-c', 'env', 'sudo', 'xargs', 'find', '-delete', 'python3', '--version', 'cd', 'pushd', 'sub', '..', '/tmp', 'npm', 'test',
    'RM', '/bin/rm', './tool', 'eval', 'exec', 'trap', 'EXIT', 'set', '-a', 'read', 'printf', '-v', 'mkdir', '-p', 'ln', '-s', 'chmod', '/dev/stdout', '/dev/fd/3',
    '/proc/self/fd/3', '/proc/self/cwd/q', '/dev/null', '~', '~/x', '~u/x', 'a~', '*.ts', 'a?', '[', ']', 'x]', '2', '3', '10', '-', '1-', '3-', 'A=1', 'a=1',
    'PATH=/x', 'HOME=/y', 'EOF', 'E', 'a#b', '=', 'x=',
  ];
  const outside = ['[[', ']]', 'if', 'then', 'fi', 'export', 'time', 'let', 'A+=1', 'a[1]=x', '#', '#x', '{a,b}', '$X', '!', 'é', '(', ')', '{', '}', '&', ';;'];
  const chars = ['a', ' ', 'b/c', "'", '\\', '\n', '#', ';', '>', '&', '|', '*', '~', 'é', '\t', '\\"', '\\\\'];
  const quotedText = (extra: string[]) => fc.array(fc.constantFrom(...chars, ...extra), { maxLength: 6 }).map((cs) => cs.join(''));
  const escapes = ['\\ ', '\\\\', "\\'", '\\"', '\\$', '\\#', '\\~', '\\*', '\\>', '\\;', '\\a', '\\\t'];
  const wordOf = (wide: boolean) => fc.array(fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...inside, ...(wide ? outside : [])) },
    { weight: 2, arbitrary: quotedText(['$', '`', '"']).map((t) => `'${t.replace(/'/g, '')}'`) },
    { weight: 2, arbitrary: quotedText(wide ? ['$', '`', '\\$', '\\`', '\\\n', '\\\r'] : ['\\$', '\\`']).map((t) => `"${t.replace(/\\$/, '').replace(/(^|[^\\])"/g, '$1')}"`) },
    { weight: 1, arbitrary: fc.constantFrom(...escapes, ...(wide ? ['\\\n', '\\', '\\\u00e9', '\r', '\u00a0', '\t', '$', '`', '"', '#'] : [])) },
  ), { minLength: 1, maxLength: 3 }).map((ps) => ps.join(''));
  const redirectOf = (wide: boolean) => fc.tuple(
    fc.constantFrom('', '', '', '0', '1', '2', '3', '10', ...(wide ? ['{fd}', 'x'] : [])),
    fc.constantFrom('>', '>>', '>|', '<', '<>', '&>', '&>>', '>&', '<&', '<<<', ...(wide ? ['>(', '<(', '>>>'] : [])),
    fc.constantFrom('', ' ', ...(wide ? ['\\\n'] : [])),
    fc.oneof(wordOf(wide), fc.constantFrom('1', '2', '-', '1-', 'f', '/dev/stdout', '/dev/fd/3', '/proc/self/fd/3', ...(wide ? ['#f', ''] : []))),
  ).map(([n, op, gap, target]) => `${n}${op}${gap}${target}`);
  interface Heredoc { op: string; delimiter: string; lines: string[]; end: string }
  const heredocOf = (wide: boolean): fc.Arbitrary<Heredoc> => fc.record({
    op: fc.constantFrom('<<', '<<-', '<< ', '0<<', '3<<'),
    delimiter: fc.constantFrom('EOF', "'EOF'", '"EOF"', '1', 'E', ...(wide ? ['E"O"F', '\\EOF', "'E F'", '""', 'EOF>f', '-EOF'] : [])),
    lines: fc.array(fc.array(fc.constantFrom('x', ' ', "'", '"', '#', 'EOF', 'rm y', ...(wide ? ['$y', '`z`', '\\', '\t', '\r'] : [])), { maxLength: 4 }).map((cs) => cs.join('')), { maxLength: 3 }),
    end: fc.constantFrom('exact', 'exact', 'exact', ...(wide ? ['space', 'tab', 'missing', 'crlf'] : [])),
  });
  const delimiterText = (d: string) => d.replace(/^'(.*)'$/, '$1').replace(/^"(.*)"$/, '$1').replace(/^\\/, '').replace(/"/g, '').replace(/>f$/, '');
  const bodyOf = (h: Heredoc) => {
    const d = delimiterText(h.delimiter);
    return h.lines.map((l) => `${l}\n`).join('') + ({ exact: `${d}\n`, space: `${d} \n`, tab: `\t${d}\n`, missing: '', crlf: `${d}\r\n` }[h.end] ?? '');
  };
  const joins = [' && ', '&&', ' || ', ' | ', '|', '; ', ';', '\n', ' &&\n', '|\n  ', '\n\n', ' # note\n', ';\n'];

  /** Commands of the subset: statements of words, redirections and here-documents, joined; here-document bodies after the line. */
  const subset: fc.Arbitrary<string> = fc.array(
    fc.tuple(
      fc.array(fc.tuple(
        fc.oneof({ weight: 6, arbitrary: wordOf(false) }, { weight: 3, arbitrary: redirectOf(false) }, { weight: 1, arbitrary: heredocOf(false) }),
        fc.constantFrom(' ', ' ', ' ', '\t', ' \\\n  ', ''),
      ), { minLength: 1, maxLength: 5 }),
      fc.constantFrom(...joins),
    ),
    { minLength: 1, maxLength: 4 },
  ).map((statements) => {
    let out = '';
    let pending: Heredoc[] = [];
    statements.forEach(([elements, join], s) => {
      elements.forEach(([e, gap], k) => {
        // No gap is a redirection glued to its word (`echo x>f`), never two words glued.
        const glue = gap === '' && typeof e === 'string' && /^[0-9]*[<>&]/.test(e) ? '' : gap || ' ';
        if (k > 0) out += glue;
        if (typeof e === 'string') out += e;
        else {
          out += `${e.op}${e.delimiter}`;
          pending.push(e);
        }
      });
      if (s < statements.length - 1 || join.endsWith('\n')) out += join;
      if (out.endsWith('\n') && pending.length > 0 && !/(&&|\|)\n *$/.test(out)) {
        out += pending.map(bodyOf).join('');
        pending = [];
      }
    });
    if (pending.length > 0) out += `\n${pending.map(bodyOf).join('')}`;
    return out;
  });

  /** The subset's pieces and what lies just outside it, in any order: what the scanner must decline. */
  const nearMisses: fc.Arbitrary<string> = fc.array(fc.tuple(
    fc.oneof(
      { weight: 8, arbitrary: wordOf(true) },
      { weight: 3, arbitrary: redirectOf(true) },
      { weight: 2, arbitrary: heredocOf(true) },
      { weight: 3, arbitrary: fc.constantFrom(...joins, '#c', ' ;; ', ' & ', ' |& ', '\r\n', ' ( ', ' ) ', '# x \\\n', '\n;') },
    ),
    fc.constantFrom(' ', ' ', '', '  ', '\t', ' \\\n  ', '\\\n'),
  ), { minLength: 1, maxLength: 9 }).map((items) => {
    let out = '';
    let pending: Heredoc[] = [];
    for (const [it, gap] of items) {
      if (typeof it !== 'string') {
        out += `${it.op}${it.delimiter}${gap}`;
        pending.push(it);
        continue;
      }
      out += it;
      if (it.endsWith('\n') && pending.length > 0) {
        out += pending.map(bodyOf).join('');
        pending = [];
      }
      out += gap;
    }
    if (pending.length > 0) out += `\n${pending.map(bodyOf).join('')}`;
    return out;
  });

  test.each([['the subset', subset, 0.3], ['near misses', nearMisses, 0.03]] as const)('generated commands: %s', (_name, arbitrary, least) => {
    let accepted = 0;
    let total = 0;
    fc.assert(
      fc.property(arbitrary, (command) => {
        total++;
        if (check(command) === 'same') accepted++;
      }),
      fcParams(2),
    );
    // A property that only ever declined would prove nothing.
    expect(accepted / total).toBeGreaterThan(least);
  });
});
