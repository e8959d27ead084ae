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
    ['a && b > f', ['f']],
    ['a || b > f', ['f']],
    ['a; b > f', ['f']],
    ['a | b > f', ['f']],
    ['{ echo x; } > f', ['f']],
    ['(cd sub && echo > f)', ['sub/f']],
    ['(cd sub && echo > f); echo > g', ['sub/f', 'g']],
    ['cd sub; echo > f', ['sub/f']],
    ['cd sub && cd .. && echo > f', ['f']],
    ['cd /tmp && rm x', ['/tmp/x']],
    ['cd && touch y', ['/home/u/y']],
    ['echo $(echo > f)', ['f']],
    ['echo `touch q`', ['q']],
    ['X=$(rm k) ls', ['k']],
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
    ['env A=1 tee f', ['f']],
    ['A=1 B=2 tee f', ['f']],
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
    ['f() { rm x; }', ['x']],
    ['while read l; do echo "$l" >> out; done < in', ['out']],
    ['[[ -f x ]] && rm x', ['x']],
    // words
    ['echo x > "a b.txt"', ['a b.txt']],
    ["echo x > 'src/x.ts'", ['src/x.ts']],
    ['echo x > a\\ b', ['a b']],
    ["r''m z", ['z']],
    ['\\rm z', ['z']],
    ['/bin/RM z', ['z']],
    ['rm.exe z', ['z']],
    ['echo $X > f', ['f']],
    ['echo x >> ~/.bashrc', ['/home/u/.bashrc']],
    ['echo x > ./src//app.ts', ['src/app.ts']],
    ['echo x > ../outside.txt', ['/outside.txt']],
    ['echo x > /proj/src/a.ts', ['src/a.ts']],
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
    'ls 2>&-',
    'cat < in.txt',
    'git status',
    'npm test -- --watch=false',
    "sed 's/a/b/' f",
    'sort in.txt',
    'find . -name "*.ts" -exec grep -l x {} +',
    'command -v rm',
    'echo rm -rf x',
    "awk '{print $1}' f",
    'xargs grep foo',
    'bash script.sh',
    'python3 tool.py',
    'node --version',
    'curl https://example.com',
    'tar tf a.tgz',
    "echo \"it's > fine\"",
    '# rm -rf /',
  ])('%s', (command) => {
    expect(run(command)).toEqual({ paths: [], unchecked: null });
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
    ["$'\\x72m' x", /command name is not static/, []],
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
  ])('%s', (command, reason, paths) => {
    const result = run(command);
    expect(result.paths).toEqual(paths);
    expect(result.unchecked).toMatch(reason);
  });

  test(`a command longer than ${MAX_COMMAND_LENGTH} characters is not checkable`, () => {
    const result = shellWrites(`echo ${'x'.repeat(MAX_COMMAND_LENGTH)} > f`, { cwd: root, projectRoot: root });
    expect(result).toEqual({ paths: [], unchecked: `the command is longer than ${MAX_COMMAND_LENGTH} characters`, via: 'limit' });
  });

  test('scripts nested beyond the depth bound are not checkable', () => {
    let script = 'touch deep';
    for (let i = 0; i < 9; i++) script = `bash -c ${JSON.stringify(script).replace(/\$/g, '\\$')}`;
    expect(run(script).unchecked).toMatch(/nests scripts more than \d+ deep/);
  });
});
