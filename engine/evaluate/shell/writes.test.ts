import { shellWrites, MAX_COMMAND_LENGTH } from './writes';

const root = '/proj';

/** Written paths (normalized) and whether the command is checkable. */
function run(command: string, cwd = root, folders: string[] = []) {
  const result = shellWrites(command, { cwd, projectRoot: root, home: '/home/u', isFolder: (p) => folders.includes(p) });
  return { paths: result.paths.map((p) => p.path), unchecked: result.unchecked };
}

describe('shellWrites: written paths', () => {
  test.each<[string, string[]]>([
    ['echo x > src/app.ts', ['src/app.ts']],
    ['echo x >> log.txt', ['log.txt']],
    ['ls &> out.txt', ['out.txt']],
    ['ls &>> out.txt', ['out.txt']],
    ['echo x >| forced.txt', ['forced.txt']],
    ['ls 2> err.txt', ['err.txt']],
    ['exec 3<> rw.txt', ['rw.txt']],
    ['ls >& all.txt', ['all.txt']],
    ['cat <<EOF > notes.md\nhello $name\nEOF', ['notes.md']],
    ['cat > notes.md <<\'EOF\'\n> not a redirect\nEOF', ['notes.md']],
    ['tee -a log.txt', ['log.txt']],
    // Comments bash reads as comments too (after a blank, an operator, a new line).
    ['echo $X #c\nrm a', ['a']],
    ['echo "$X";#c\nrm a', ['a']],
    ['(#c\nrm a)', ['a']],
    ['echo $X &&#c\nrm a', ['a']],
    ['echo $X \\\n#c\nrm a', ['a']],
    ['echo x | tee a.txt b.txt >/dev/null', ['a.txt', 'b.txt']],
    ['cp a b', ['b']],
    ['cp -r src/ dst', ['dst']],
    ['cp a b c/', ['c/a', 'c/b']],
    ['cp a.txt dir/', ['dir/a.txt']],
    ['cp -T a dir/', ['dir']],
    ['mv -t dst a b', ['dst/a', 'dst/b', 'a', 'b']],
    ['mv --target-directory=dst a', ['dst/a', 'a']],
    ['mv old.ts new.ts', ['new.ts', 'old.ts']],
    ['install -m 755 tool bin/tool', ['bin/tool']],
    ['install -d build/out', ['build/out']],
    ["sed -i 's/a/b/' f", ['f']],
    ["sed -i.bak -e 's/a/b/' f g", ['f', 'g']],
    ["sed -Ei 's/a/b/' f", ['f']],
    ["sed --in-place 's/a/b/' f", ['f']],
    ['rm -rf build', ['build']],
    ['rm -- -weird', ['-weird']],
    ['rmdir empty', ['empty']],
    ['touch x', ['x']],
    ['touch -r ref.txt x', ['x']],
    ['truncate -s0 f', ['f']],
    ['truncate -s 0 f', ['f']],
    ['dd if=/dev/zero of=f bs=1', ['f']],
    ['ln -s ../x y', ['/x', 'y']],
    ['ln -s ../secret.txt sub/link', ['/secret.txt', 'sub/link', 'secret.txt']],
    ['mkdir -p a/b', ['a/b']],
    ['mkfifo -m 600 p q', ['p', 'q']],
    ['mknod -m 600 p p', ['p']],
    ['mknod dev c 1 3', ['dev']],
    ['chmod -x f g', ['f', 'g']],
    ['chmod 755 f', ['f']],
    ['chmod -R u+w dir', ['dir']],
    ['chown -R me:me dir', ['dir']],
    ['chmod --reference=r f', ['f']],
    ['sort -o sorted.txt in.txt', ['sorted.txt']],
    ['curl -sSo page.html https://example.com', ['page.html']],
    ['curl --output=page.html https://example.com', ['page.html']],
    ['wget -O data.json https://example.com/x', ['data.json']],
    ['tar -czf out.tgz src', ['out.tgz']],
    ['tar czf out.tgz src', ['out.tgz']],
    ['rsync -av src/ backup/', ['backup']],
    ['/usr/bin/time -o t.txt ls', ['t.txt']],
    // composition
    ['true && echo > f', ['f']],
    ['false || echo > f', ['f']],
    ['ls; echo > f', ['f']],
    ['ls | cat > f', ['f']],
    ['{ echo x; } > f', ['f']],
    ['(cd sub && echo > f)', ['sub/f']],
    ['(cd sub && echo > f); echo > g', ['sub/f', 'g']],
    ['cd sub; echo > f', ['sub/f']],
    ['cd sub && cd .. && echo > f', ['f']],
    ['cd /tmp && rm x', ['/tmp/x']],
    ['cd && touch y', ['/home/u/y']],
    ['echo $(echo > f)', ['f']],
    ['echo `touch q`', ['q']],
    ['x=$(rm k) ls', ['k']],
    ['echo "$(rm -f k)"', ['k']],
    ['diff <(sort a > s1) b', ['s1']],
    ['echo x > >(cat > f)', ['f']],
    ["bash -c 'echo > f'", ['f']],
    ["sh -c 'cd sub && rm x'", ['sub/x']],
    ["bash -lc 'touch a'", ['a']],
    ["zsh -c \"bash -c 'touch deep'\"", ['deep']],
    ['eval "touch e"', ['e']],
    ['eval "cd sub"; touch e', ['sub/e']],
    ["bash -c 'cd sub'; touch e", ['e']],
    ["bash <<'EOF'\nrm -rf zz\nEOF", ['zz']],
    ['env a=1 LANG=C tee f', ['f']],
    ['a=1 b=2 tee f', ['f']],
    ['env -C sub touch f', ['sub/f']],
    ['sudo -u root tee /etc/hosts', ['/etc/hosts']],
    ['nohup rm x &', ['x']],
    ['command rm x', ['x']],
    ['builtin echo x > f', ['f']],
    ['exec > log.txt', ['log.txt']],
    ['timeout 5 rm x', ['x']],
    ['nice -n 5 touch x', ['x']],
    ['find . -name x -fprint found.txt', ['found.txt']],
    ['if true; then touch t; fi', ['t']],
    ['for f in a b; do echo > out; done', ['out']],
    ['f() { rm x; }; f', ['x']],
    ['f() { rm x; }', []],
    ['f() { cd sub; }; f; echo > x', ['sub/x']],
    ['cd() { :; }; cd sub; echo > x', ['x']],
    ['f() { rm a; }; f() { rm b; }; f', ['a', 'b']],
    ["trap 'rm t' EXIT", ['t']],
    ['git diff --output=d.txt', ['d.txt']],
    ['git log -p --output d.txt', ['d.txt']],
    ['uniq in.txt out.txt', ['out.txt']],
    ['tree -o t.txt src', ['t.txt']],
    ['tar -cf a.tar -g snap src', ['a.tar', 'snap']],
    ['while read l; do echo "$l" >> out; done < in', ['out']],
    ['[[ -f x ]] && rm x', ['x']],
    // words
    ['echo x > "a b.txt"', ['a b.txt']],
    ["echo x > 'src/x.ts'", ['src/x.ts']],
    ['echo x > a\\ b', ['a b']],
    ["r''m z", ['z']],
    ['\\rm z', ['z']],
    ['/bin/rm z', ['z']],
    ['echo $X > f', ['f']],
    ['echo x >> ~/.bashrc', ['/home/u/.bashrc']],
    ['echo x > ./src//app.ts', ['src/app.ts']],
    ['echo x > ../outside.txt', ['/outside.txt']],
    ['echo x > /proj/src/a.ts', ['src/a.ts']],
    ['echo x > C:/x', ['C:/x']],
  ])('%s', (command, expected) => {
    expect(run(command)).toEqual({ paths: expected, unchecked: null });
  });

  test('relative to the event cwd', () => {
    expect(run('echo x > f', '/proj/sub')).toEqual({ paths: ['sub/f'], unchecked: null });
  });

  test('cp into an existing folder writes the file inside it', () => {
    expect(run('cp a.txt out', root, ['out'])).toEqual({ paths: ['out/a.txt'], unchecked: null });
  });
});

describe('shellWrites: near misses write nothing', () => {
  test.each([
    "echo '> src/app.ts'",
    'echo "> src/app.ts"',
    "grep '>' file",
    'cat src/app.ts',
    'ls 2>&1',
    'ls >/dev/null 2>&1',
    'ls &>/dev/null',
    'echo x > /dev/stderr',
    'echo x > /dev/fd/3',
    'echo x >/dev/stdout 2>&1',
    'echo x | tee /dev/stdin',
    'ls 2>&-',
    'cat < in.txt',
    'git status',
    'git log --oneline | head -5',
    'ls -la src && git status --short',
    'cd src && git diff HEAD~1 -- a.ts',
    'git branch -a',
    'git config --get user.email && git config --list --show-origin',
    'git --no-pager show HEAD:src/a.ts',
    'grep -rn foo $DIR',
    'cat *.ts | wc -l',
    'node --version',
    'printf "%s\\n" a',
    'read -r line < in.txt',
    'for f in a b; do cat "$f"; done',
    'export lower=1 LANG=C',
    "sed 's/a/b/' f",
    'sort in.txt',
    'find . -name "*.ts" -exec grep -l x {} +',
    'command -v rm',
    'echo rm -rf x',
    "awk '{print $1}' f",
    'xargs grep foo',
    'curl https://example.com',
    'tar tf a.tgz',
    "echo \"it's > fine\"",
    '# rm -rf /',
  ])('%s', (command) => {
    expect(run(command)).toEqual({ paths: [], unchecked: null });
  });
});

describe('shellWrites: descriptors are followed through redirections, whatever their mode', () => {
  test.each<[string, string[]]>([
    // A file opened for reading, then reopened for writing through the descriptor.
    ['echo pwned 1<src/a.ts >/dev/stdout', ['src/a.ts']],
    ['echo pwned 3<src/a.ts >/dev/fd/3', ['src/a.ts']],
    ['< src/a.ts tee /dev/stdin', ['src/a.ts']],
    ['echo pwned 3<src/a.ts >/proc/self/fd/3', ['src/a.ts']],
    ['echo pwned 2<src/a.ts >/dev/stderr', ['src/a.ts']],
    ['echo pwned 3<src/a.ts >/proc/thread-self/fd/3', ['src/a.ts']],
    ['exec 3<src/a.ts; echo pwned > /dev/fd/3', ['src/a.ts']],
    ['exec 4<src/a.ts; exec 5<&4; echo pwned > /dev/fd/5', ['src/a.ts']],
    ['exec 4<src/a.ts 5<&4-; echo pwned > /dev/fd/5', ['src/a.ts']],
    ['{ echo pwned >/dev/fd/3; } 3<src/a.ts', ['src/a.ts']],
    ['{ exec 3<src/a.ts; }; echo pwned >/dev/fd/3', ['src/a.ts']],
    ['if true; then exec 3<src/a.ts; fi; echo pwned >/dev/fd/3', ['src/a.ts']],
    ['while read l; do echo "$l" >/dev/fd/3; exec 3<src/a.ts; done < in.txt', ['src/a.ts']],
    ['f() { tee /dev/stdin; }; f < src/a.ts', ['src/a.ts']],
    ["bash -c 'echo pwned > /dev/fd/3' 3<src/a.ts", ['src/a.ts']],
    ['cp x /dev/fd/3 3<src/a.ts', ['src/a.ts']],
    ['dd of=/dev/stdout 1<src/a.ts', ['src/a.ts']],
    ['exec {fd}<src/a.ts; echo pwned > /dev/fd/10', ['src/a.ts']],
    ['exec 3<src; echo pwned > /dev/fd/3/a.ts', ['src/a.ts']],
    ['cd src && exec 3<a.ts; cd ..; echo pwned > /dev/fd/3', ['src/a.ts']],
    ['exec 3<src/a.ts; exec 1>/dev/fd/3; echo pwned > /dev/stdout', ['src/a.ts']],
    ['echo pwned > /proc/self/cwd/src/a.ts', ['src/a.ts']],
    ['cd src && echo pwned > /proc/self/cwd/a.ts', ['src/a.ts']],
    ['echo pwned > /proc/self/root/proj/src/a.ts', ['src/a.ts']],
    ['echo pwned 3<src/a.ts > /dev/./fd/../fd/3', ['src/a.ts']],
    ['echo pwned > /dev/fd/3 3<src/a.ts', []],
    // Descriptors that hold no file.
    ['ls > /dev/stdout', []],
    ['echo x 3<src/a.ts; echo y > /dev/fd/3', []],
    ['exec 3<src/a.ts 3<&-; echo pwned > /dev/fd/3', []],
    ['cat src/a.ts | tee /dev/stdin', []],
  ])('%s', (command, expected) => {
    expect(run(command)).toEqual({ paths: expected, unchecked: null });
  });

  test.each<[string, RegExp]>([
    ['echo x > /proc/123/fd/3', /another process/],
    ["trap 'echo x > /dev/fd/3' EXIT; exec 3<src/a.ts", /not known at that point/],
    ['exec 3<"$F"; echo x > /dev/fd/3', /not static/],
  ])('%s is not checkable', (command, reason) => {
    expect(run(command).unchecked).toMatch(reason);
  });
});

describe('shellWrites: commands the analysis does not know are not checkable (an allow list)', () => {
  test.each<[string, RegExp]>([
    // writers it has no entry for
    ['gzip src/a.ts', /gzip: not a command whose writes are known/],
    ['split -l 10 big.txt src/part-', /split: not a command/],
    ['xxd -r dump src/a.ts', /xxd: not a command/],
    ['iconv -f latin1 -t utf8 a -o src/a.ts', /iconv: not a command/],
    ['openssl enc -in a -out src/a.ts', /openssl: not a command/],
    ['unzip x.zip', /unzip: not a command/],
    ['cpio -i < a.cpio', /cpio: not a command/],
    ['sqlite3 db.sqlite "VACUUM INTO \'src/a.ts\'"', /sqlite3: not a command/],
    // wrappers
    ['flock /tmp/l rm src/a.ts', /flock: not a command/],
    ['taskset -c 0 rm src/a.ts', /taskset: not a command/],
    ['chrt -f 10 rm src/a.ts', /chrt: not a command/],
    ['unshare -r rm src/a.ts', /unshare: not a command/],
    ["su -c 'rm src/a.ts' me", /su: not a command/],
    ['runuser -u me -- rm src/a.ts', /runuser: not a command/],
    ['watch -n 1 rm src/a.ts', /watch: not a command/],
    ['parallel rm ::: src/a.ts', /parallel: not a command/],
    // aliases, traps, mapfile callbacks, sourced files
    ["alias ls='rm -rf src'; ls", /defines an alias/],
    ['mapfile -C cb -c 1 < list', /mapfile -C runs a callback/],
    ['source ./env.sh', /source: not a command/],
    ['. ./env.sh', /\.: not a command/],
    // git beyond reading, editors, build tools, package managers, scripts
    ['git checkout main', /git checkout main may switch branches/],
    ['git switch main', /git switch is not a git command known/],
    ['git apply fix.diff', /git apply/],
    ['git clean -fdx', /git clean/],
    ['git branch evil', /changes git's branches/],
    ['git config user.email x@y', /git config may change/],
    ['git config --get-all x --add y z', /git config may change/],
    ['git -c core.fsmonitor=./x status', /git -c points git/],
    ['git -C /tmp/repo status', /git -C points git/],
    ['cd /tmp/repo && git status', /runs outside the project/],
    ['vim src/a.ts', /vim: not a command/],
    ['make', /make: not a command/],
    ['npm test', /npm: not a command/],
    ['npx jest', /npx: not a command/],
    ['pip install x', /pip: not a command/],
    ['cargo build', /cargo: not a command/],
    ['./tool', /it runs the program \.\/tool/],
    ['/tmp/bin/rm x', /it runs the program \/tmp\/bin\/rm/],
    ['bash script.sh', /runs the script file script\.sh/],
    ['python3 tool.py', /runs python3 code from a file/],
    ['LS', /not exactly the name of a known command \(ls\)/],
    // options of known commands that run programs or name other configuration
    ['rg --pre ./x foo', /rg --pre runs a program/],
    ['sort --compress-program=./x in.txt', /sort --compress-program/],
    ['tar -cf a.tar -I ./x src', /tar runs a program/],
    ['rsync -e ./x a b', /rsync -e runs a program/],
    ['curl -K cfg https://example.com', /curl -K reads options/],
    ['file -C -m magic', /file -C/],
    // an argument with no static text may be an option that writes
    ['sort $OPT in.txt', /an argument is not static/],
    ["sed 's/a/b/' $F", /an argument is not static/],
    ['git log $X', /not static/],
    // variables that change what later commands run
    ['PATH=/tmp/evil:$PATH ls', /it sets PATH/],
    ['export PATH=/tmp/evil', /it sets PATH/],
    ['for PATH in /tmp/evil; do ls; done', /it sets PATH/],
    ['read -r PATH < f; ls', /it sets PATH/],
    ['printf -v PATH /tmp/evil; ls', /it sets PATH/],
    ['HOME=/tmp/evil git status', /it sets HOME/],
    ['GIT_EXTERNAL_DIFF=./x git diff', /it sets GIT_EXTERNAL_DIFF/],
    ['env BASH_ENV=./x bash -c ls', /it sets BASH_ENV/],
    [': ${PATH:=/tmp/evil}', /it sets PATH/],
    ['declare -n r=PATH; r=/tmp/evil; ls', /-n makes a name stand for another variable/],
    ['set -a; path=x', /set -a exports/],
  ])('%s', (command, reason) => {
    expect(run(command).unchecked).toMatch(reason);
  });

  test('a name only a case-insensitive file system reads as a known writer keeps its writes and is not checkable', () => {
    expect(run('/bin/RM z')).toEqual({ paths: ['z'], unchecked: expect.stringMatching(/not exactly the name of a known command \(rm\)/) });
    expect(run('rm.exe z').paths).toEqual(['z']);
    expect(run('CD sub; echo > f')).toEqual({ paths: ['f'], unchecked: expect.stringMatching(/not exactly the name of a known command \(cd\)/) });
  });
});

describe("shellWrites: $'...' words are what bash decodes", () => {
  test("a command and a path spelled with escapes", () => {
    expect(run("$'\\x72m' x").paths).toEqual(['x']);
    expect(run("echo k > $'.e\\x6ev'").paths).toEqual(['.env']);
    expect(run("echo k > $'a\\nb'").paths).toEqual(['a\nb']);
  });

  test('a control escape or a NUL is not static', () => {
    expect(run("echo k > $'\\cA'").unchecked).toMatch(/not static/);
    expect(run("echo k > $'a\\0b'").unchecked).toMatch(/not static/);
  });
});

describe('shellWrites: not statically checkable', () => {
  test.each<[string, RegExp, string[]]>([
    ['echo x > $F', /> writes to a path that is not static/, []],
    ['echo x > "$DIR/a"', /not static/, []],
    ['echo x > *.ts', /not static/, []],
    ['echo x > {a,b}.txt', /not static/, []],
    ['echo x > ~bob/f', /not static/, []],
    ['rm $FILES', /rm writes to a path that is not static/, []],
    ['$CMD x', /command name is not static/, []],
    ['$(echo rm) x', /command name is not static/, []],
    ['xargs rm', /rm writes to a path that is not static/, []],
    ['xargs -I{} cp {} . < list; touch t', /cp copies a file whose name is not static into \./, ['t']],
    ['find . -name x -delete', /find -delete/, []],
    ['find . -exec rm {} \\;', /not static/, []],
    ['python3 -c "open(\'f\',\'w\')"', /inline python3 code/, []],
    ['node -e "require(\'fs\').writeFileSync(\'f\',\'\')"', /inline node code/, []],
    ["perl -pi -e 's/a/b/' f", /inline perl code/, []],
    ['echo "rm x" | bash', /script read from a pipe/, []],
    ['cat s.py | python3', /python3 code read from standard input/, []],
    ['bash -c "$SCRIPT"', /not static/, []],
    ['eval "$X"', /not static/, []],
    ["bash -c 'echo \"unterminated'", /cannot be parsed/, []],
    ["sed 's/a/b/w out.txt' f", /sed script may write/, []],
    ["awk '{print > \"out\"}' f", /awk program may write/, []],
    ['curl -O https://example.com/x.zip', /curl -O/, []],
    ['wget https://example.com/x.zip', /wget saves/, []],
    ['tar xzf a.tgz', /tar extracts/, []],
    ['patch -p1 < fix.diff', /patch writes/, []],
    ['cd $D && echo x > f', /after a cd to a folder that is not known/, []],
    ['cd - && echo x > f', /not known/, []],
    ['for d in a b; do cd $d; done; touch f', /not known/, []],
    ['echo x > ok.txt; echo y > $F', /not static/, ['ok.txt']],
    ['pwsh -c "Set-Content f x"', /not parsed/, []],
    ['echo x > f &&', /cannot be parsed/, []],
    // What mvdan-sh reads otherwise than bash: bash runs the rm in each of these.
    ['echo x\r\nrm -rf src', /carriage return/, []],
    ['echo x \r# ; rm -rf src', /carriage return/, []],
    ['echo x \\\r\nrm -rf src', /carriage return/, []],
    ["echo ''#; rm -rf src", /right after a quote or an expansion/, []],
    ['echo "x"#; rm -rf src', /right after a quote or an expansion/, []],
    ['echo $(ls)#; rm -rf src', /right after a quote or an expansion/, []],
    ['echo ${X}#; rm -rf src', /right after a quote or an expansion/, []],
    ['echo `ls`#; rm -rf src', /right after a quote or an expansion/, []],
    ['echo "x"\\\n#; rm -rf src', /right after a quote or an expansion/, []],
    ["bash -c \"echo ''#; rm -rf src\"", /right after a quote or an expansion/, []],
    ['ls # a comment \\\nrm -rf src', /line continuation/, []],
    // bash expands `~` after `=` in a word that looks like an assignment.
    ['dd if=a of=~/.bashrc', /not static/, []],
    ['echo x > a=~/f', /not static/, []],
  ])('%s', (command, reason, paths) => {
    const result = run(command);
    expect(result.paths).toEqual(paths);
    expect(result.unchecked).toMatch(reason);
  });

  test(`a command longer than ${MAX_COMMAND_LENGTH} characters is not checkable`, () => {
    const result = shellWrites(`echo ${'x'.repeat(MAX_COMMAND_LENGTH)} > f`, { cwd: root, projectRoot: root });
    expect(result).toEqual({ paths: [], linked: [], unchecked: `the command is longer than ${MAX_COMMAND_LENGTH} characters`, named: [], via: 'limit' });
  });

  test('scripts nested beyond the depth bound are not checkable', () => {
    let script = 'touch deep';
    for (let i = 0; i < 9; i++) script = `bash -c ${JSON.stringify(script).replace(/\$/g, '\\$')}`;
    expect(run(script).unchecked).toMatch(/nests scripts more than \d+ deep/);
  });
});

describe('shellWrites: second names a command makes (new-names.ts)', () => {
  /** Written and named-again paths, with symlinks on disk given as link -> text. */
  function names(command: string, links: Record<string, string> = {}, folders: string[] = []) {
    const result = shellWrites(command, {
      cwd: root, projectRoot: root, isFolder: (p) => folders.includes(p), readLink: (absolute) => links[absolute] ?? null,
    });
    return { paths: result.paths.map((p) => p.path), linked: result.linked.map((p) => p.path), unchecked: result.unchecked };
  }

  test.each<[string, Record<string, string>, string[], string[]]>([
    // command, links on disk, written, named again
    ['cp -l .claude/policies.yaml src/p.yaml', {}, ['src/p.yaml'], ['.claude/policies.yaml']],
    ['cp --link -r .claude backup', {}, ['backup'], ['.claude']],
    ['cp -al .claude backup/', {}, ['backup/.claude'], ['.claude']],
    ['cp -s /proj/.claude/settings.json src/s.json', {}, ['src/s.json'], ['.claude/settings.json']],
    ['cp -P l src/l', { '/proj/l': '../.claude/policies.yaml' }, ['src/l'], ['.claude/policies.yaml']],
    ['cp -a l src/', { '/proj/l': '../.claude/policies.yaml' }, ['src/l'], ['.claude/policies.yaml']],
    ['cp -d src/x src/y', { '/proj/src/x': '/proj/.claude/policies.yaml' }, ['src/y'], ['.claude/policies.yaml']],
    ['cp -r l src/l', { '/proj/l': '../.claude/policies.yaml' }, ['src/l'], ['.claude/policies.yaml']],
    ['mv l src/l', { '/proj/l': '../.claude/policies.yaml' }, ['src/l', 'l'], ['.claude/policies.yaml']],
    ['rsync -a --link-dest=../prev src/ dst/', {}, ['dst'], ['/prev', 'prev']],
    // A link that leads where it did, and plain copies, name nothing again.
    ['mv src/l src/m', { '/proj/src/l': 'app.ts' }, ['src/m', 'src/l'], []],
    ['cp l src/l', { '/proj/l': '../.claude/policies.yaml' }, ['src/l'], []],
    ['cp -L -r l src/l', { '/proj/l': '../.claude/policies.yaml' }, ['src/l'], []],
    ['cp -a src dist', {}, ['dist'], []],
  ])('%s', (command, links, written, linked) => {
    expect(names(command, links)).toEqual({ paths: written, linked, unchecked: null });
  });

  test('a command that makes more than 500 links, copies or moves is not checkable, and answers at once', () => {
    const started = Date.now();
    const result = names(`${'mv a b; cp -l c d; '.repeat(1_000)}echo x > d`);
    expect(result.unchecked).toMatch(/more than 500 links, copies or moves/);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(names(`${'mv a b; '.repeat(499)}echo x > b`).unchecked).toBeNull();
  });

  test.each<[string, Record<string, string>, string[]]>([
    // ln writes what its links lead to, in every form (before: only `ln -s T DIR/L`).
    ['ln -s -t src ../.claude/policies.yaml', {}, ['/.claude/policies.yaml', 'src', '.claude/policies.yaml', 'src/policies.yaml']],
    ['ln -s ../.claude/policies.yaml src/', {}, ['/.claude/policies.yaml', 'src', '.claude/policies.yaml', 'src/policies.yaml']],
    ['ln -sr .claude/policies.yaml src/p', {}, ['.claude/policies.yaml', 'src/p']],
    ['ln -s ../shared node_modules/x', {}, ['/shared', 'node_modules/x', 'shared']],
    // A write through a name made earlier in the command writes what it leads to.
    ['cp -l .claude/policies.yaml src/p.yaml && echo x > src/p.yaml', {}, ['src/p.yaml', '.claude/policies.yaml']],
    ['mv l src/l && echo x > src/l', { '/proj/l': '../.claude/policies.yaml' }, ['src/l', 'l', '.claude/policies.yaml']],
    ['cp -a a/b/d y/x && echo x > y/x/l', { '/proj/a/b/d/l': '../../.claude/settings.json' }, ['y/x', 'y/x/l', '.claude/settings.json']],
    ['cp -a a/b/d y/x && cp -P y/x/l q/r/s/t && echo x > q/r/s/t', { '/proj/a/b/d/l': '../../../.claude/settings.json' }, ['y/x', 'q/r/s/t', '.claude/settings.json']],
    ['mv build out && echo x > out/log', {}, ['out', 'build', 'out/log', 'build/log']],
    ['echo x > y/l; cp -a d y', { '/proj/d/l': '/etc/passwd' }, ['y/l', 'y', '/etc/passwd']],
    ['cp -a src dist && echo x > dist/out.txt', {}, ['dist', 'dist/out.txt']],
  ])('%s', (command, links, written) => {
    expect(names(command, links).paths).toEqual(written);
  });
});
