#!/usr/bin/env python3
"""Issue 39's module plan, checked. From the repository root: python3 modules.py [--moves | --imports | --write-imports]
Crude: strips comments and string bodies, cuts files into top-level chunks, and matches names as whole words: top-level
names bare; extension members after a dot (sure if one file declares the name or the user names the type)."""
import collections, os, re, sys

LIB, DD = 'Sources/TrafficGateway', lambda: collections.defaultdict(set)
OTHERS = ['GatewaySimulation', 'GatewayFuzzSupport', 'gatewayd', 'gatewayd-fuzz', '../Tests/GatewayTests']
SYSTEM = {'Foundation', 'FoundationEssentials', 'Glibc', 'Darwin', 'Dispatch', 'Synchronization'}
MODS = (r'(?:(?:@\w+(?:\([^)]*\))?|public|package|internal|fileprivate|private|open|final|nonisolated|indirect|static|'
        r'class(?=\s+(?:func|var))|mutating|override|convenience|required|lazy|weak|unowned|\w+\(set\))\s+)*')
TOP = re.compile(r'^\s*' + MODS + r'(struct|enum|class|actor|protocol|typealias|func|extension|let|var)\s+([A-Za-z_][\w.]*|\[[^\]]*\])?')
MEMBER = re.compile(r'^\s*' + MODS + r'(struct|enum|class|actor|protocol|typealias|func|let|var|case|init|subscript)\b\s*([A-Za-z_]\w*)?')
ACCESS = re.compile(r'\b(public|package|internal|fileprivate|private|open)\b(?!\(set\))')
OPEN = {'public', 'package', 'open'}
STDLIB = set('''description debugDescription count isEmpty first last rawValue hashValue hash map filter reduce append insert
remove contains min max sorted joined split prefix suffix value values keys text string data bytes encode decode close run
write read next reset start stop id name kind formUnion union subtract intersection'''.split())

def strip(src):
    out, n = [], len(src)
    def code(i, interp, depth=0):
        while i < n:
            c = src[i]
            if src.startswith('//', i): i = src.find('\n', i) if '\n' in src[i:] else n; continue
            if src.startswith('/*', i):
                d, i = 1, i + 2
                while i < n and d:
                    if src.startswith('/*', i): d, i = d + 1, i + 2
                    elif src.startswith('*/', i): d, i = d - 1, i + 2
                    else: out.append('\n' if src[i] == '\n' else ''); i += 1
                continue
            m = re.match(r'(#*)("""|")', src[i:i + 12])
            if m and (m.group(1) or c == '"'): i = string(i + len(m.group(0)), m.group(1), m.group(2)); out.append('""'); continue
            if interp and c in '()':
                if c == ')' and depth == 0: out.append(')'); return i + 1
                depth += 1 if c == '(' else -1
            out.append(c); i += 1
        return i
    def string(i, hashes, quote):
        esc, close = '\\' + hashes, quote + hashes
        while i < n:
            if src.startswith(close, i): return i + len(close)
            if src.startswith(esc + '(', i): out.append(' ('); i = code(i + len(esc) + 1, True); continue
            if src.startswith(esc, i): i += len(esc) + 1; continue
            out.append('\n' if src[i] == '\n' else ''); i += 1
        return i
    code(0, False)
    return ''.join(out)

class Chunk:
    def __init__(s, file, kind, name, access):
        s.file, s.orig, s.kind, s.name, s.access, s.lines, s.members = file, file, kind, name, access, [], []
    def finish(s):
        s.text = '\n'.join(s.lines); s.base = s.name.split('.')[0]
        s.bare, s.dotted = set(re.findall(r'(?<![.\w])([A-Za-z_]\w*)', s.text)), set(re.findall(r'\.\s*([A-Za-z_]\w*)', s.text))
        s.nested = set(re.findall(r'\b(?:struct|enum|class|actor|typealias|protocol)\s+(\w+)', '\n'.join(s.lines[1:])))

def access_of(prefix): m = ACCESS.search(prefix); return m.group(1) if m else None

def load(root, prefix=''):
    chunks = []
    for d, _, fs in sorted(os.walk(root)):
        for f in sorted(x for x in fs if x.endswith('.swift')):
            rel, cur, depth = prefix + os.path.relpath(os.path.join(d, f), root), None, 0
            for line in strip(open(os.path.join(d, f), encoding='utf-8').read()).split('\n'):
                m = TOP.match(line) if depth == 0 else None
                if m: cur = Chunk(rel, m.group(1), m.group(2) or '?', access_of(line[:m.start(1)]) or 'internal'); chunks.append(cur)
                if cur:
                    cur.lines.append(line)
                    mm = MEMBER.match(line) if depth == 1 and cur.kind not in ('func', 'let', 'var', 'typealias') else None
                    if mm and (mm.group(2) or mm.group(1) == 'init'):
                        k, a, names = mm.group(1), access_of(line[:mm.start(1)]), [mm.group(2) or 'init']
                        if k == 'case': names = re.findall(r'[A-Za-z_]\w*', re.sub(r'\([^)]*\)|=[^,]*', '', line[mm.end(1):]))
                        if a is None:  # the protocol's, the enum's, a `public extension`'s, else internal
                            a = cur.access if cur.kind == 'protocol' or k == 'case' or (cur.kind == 'extension' and cur.access != 'internal') else 'internal'
                        cur.members += [(x, k, a) for x in names]
                depth += line.count('{') - line.count('}')
    for c in chunks: c.finish()
    return chunks

def index(chunks):
    top, ext, declared = collections.defaultdict(list), collections.defaultdict(list), DD()
    for c in chunks:
        if c.kind != 'extension' and c.access not in ('private', 'fileprivate'): top[c.name].append(c)
        for m in re.findall(r'\b(?:let|var|func|case)\s+([A-Za-z_]\w*)', c.text) + re.findall(r'[(,]\s*([a-z]\w*):\s*[A-Z\[(]', c.text):
            declared[m].add(c.orig)
        for (m, k, a) in c.members:
            if c.kind == 'extension' and a not in ('private', 'fileprivate') and k != 'init': ext[m].append(c)
    return top, ext, declared

def mentions(c, idx):
    """(sure, unsure) = {provider chunk: names} for one user chunk."""
    (top, ext, declared), sure, unsure = idx, DD(), DD()
    for n in (c.bare - c.nested) & top.keys():
        for d in top[n]:
            if d is not c: sure[d].add(n)
    for n in (c.dotted | c.bare) & ext.keys():
        for d in ext[n]:
            if d is not c and (n in c.dotted or d.base == c.base):
                ok = (n not in STDLIB and len(declared[n]) == 1) or d.base in c.bare
                (sure if ok else unsure)[d].add('.' + n)
    return sure, unsure

def tarjan(nodes, edges):
    index, low, stack, res = {}, {}, [], []
    def visit(v):
        index[v] = low[v] = len(index); stack.append(v)
        for w in edges.get(v, ()):
            if w not in index: visit(w); low[v] = min(low[v], low[w])
            elif w in stack: low[v] = min(low[v], index[w])
        if low[v] == index[v]: res.append(sorted(stack[stack.index(v):])); del stack[stack.index(v):]
    for v in sorted(nodes):
        if v not in index: visit(v)
    return res

# ---------------------------------------------------------------------------------------------- the plan
MODULES = {'GatewaySupport': 0, 'GatewayDomain': 1, 'GatewayCaptures': 2, 'GatewayRecords': 3,
           'GatewayFeeds': 4, 'GatewayVoice': 4, 'GatewayRuntime': 5}          # a module imports only lower ranks
FOLDERS = {'Support': 'GatewaySupport', 'Geodesy': 'GatewaySupport', 'Traffic': 'GatewayDomain', 'Alerts': 'GatewayDomain',
           'Airspace': 'GatewayDomain', 'Core': 'GatewayDomain', 'FISB': 'GatewayDomain', 'Capture': 'GatewayCaptures',
           'Output': 'GatewayCaptures', 'Storage': 'GatewayRecords', 'NOTAM': 'GatewayRecords', 'Logbook': 'GatewayRecords',
           'Feeds': 'GatewayFeeds', 'Voice': 'GatewayVoice', 'App': 'GatewayRuntime', 'Sources': 'GatewayRuntime',
           'Sinks': 'GatewayRuntime', 'Live': 'GatewayRuntime', 'Config': 'GatewayRuntime'}
FILES = dict(x.split(' -> ') for x in """\
App/Offload.swift -> GatewaySupport/Support/Offload.swift|Config/HostPort.swift -> GatewaySupport/Support/HostPort.swift
Live/IPv4Socket.swift -> GatewaySupport/Support/IPv4Socket.swift|Feeds/FeedSnapshot.swift -> GatewayDomain/Core/FeedSnapshot.swift
Feeds/Rebroadcast.swift -> GatewayDomain/Core/Rebroadcast.swift|Output/AlertFormatter.swift -> GatewayDomain/Alerts/AlertFormatter.swift
Output/EncodedAlert.swift -> GatewayDomain/Alerts/EncodedAlert.swift|Voice/Callout.swift -> GatewayDomain/Alerts/Callout.swift
Voice/CalloutWording.swift -> GatewayDomain/Alerts/CalloutWording.swift|FISB/FISBCaptureDecoder.swift -> GatewayCaptures/Capture/FISBCaptureDecoder.swift
Airspace/AirspaceSet.swift -> GatewayRecords/Airspace/AirspaceSet.swift|Logbook/LogbookJSON.swift -> GatewayFeeds/Feeds/LogbookJSON.swift
NOTAM/NotamRefresh.swift -> GatewayRuntime/App/NotamRefresh.swift|Voice/VoiceCheck.swift -> GatewayRuntime/Sinks/VoiceCheck.swift""".replace('\n', '|').split('|'))
DECLS = {  # declarations that leave their file: 'old path:kind Name' -> (new path, new 'kind Name' or None)
    'Storage/GatewayDatabase.swift:enum GatewayError': ('GatewaySupport/Support/GatewayError.swift', None),
    'Airspace/AirspaceSet.swift:struct JSONItemSplitter': ('GatewaySupport/Support/JSONItemSplitter.swift', None),
    'Live/GPSDClient.swift:extension GPSDClient': ('GatewayCaptures/Capture/GPSDReport.swift', 'enum GPSDReport')}
RENAMES = {'Capture/CaptureDate.swift': {'GPSDClient': 'GPSDReport'}}        # callers of a renamed declaration

def home(path): top = path.split('/')[0]; return top if top in MODULES else FOLDERS[top]   # also after the split
def new_path(old): return FILES.get(old) or (old if old.split('/')[0] in MODULES else f'{home(old)}/{old}')
def module(path): return path.split('/')[0]
def ranked(ms): return sorted(ms, key=MODULES.get)

def apply_plan(chunks):
    keys = {f'{c.file}:{c.kind} {c.name}' for c in chunks}
    if set(DECLS) - keys: print('not found (already split?):', set(DECLS) - keys, file=sys.stderr)
    for c in chunks:
        key, ren = f'{c.file}:{c.kind} {c.name}', RENAMES.get(c.file, {})
        if key in DECLS:
            c.file, new = DECLS[key]
            if new: ren = {c.name: new.split()[1]}; c.kind, c.name = new.split(); c.base = c.name
        else: c.file = new_path(c.file)
        c.bare = {ren.get(x, x) for x in c.bare}
    return chunks

def graph(chunks, idx, which=0, key=lambda c: module(c.file)):
    g = collections.defaultdict(DD)
    for c in chunks:
        for d, ns in mentions(c, idx)[which].items():
            if key(c) != key(d): g[key(c)][key(d)] |= {(c.file, n, d.file) for n in ns}
    return g

def internal_uses(users, providers, declared, same=lambda c, d: False):
    """Internal declarations users mention: a type; `Type.member` or a one-file name after a dot; `Type(`."""
    out, acc = set(), DD()
    for d in providers:
        for (m, k, a) in d.members: acc[(d.base, m)].add(a)
    for c in users:
        for d in providers:
            if same(c, d) or d.access in ('private', 'fileprivate'): continue
            if d.kind != 'extension' and d.access == 'internal' and d.name in c.bare - c.nested: out.add((d, d.name))
            for (m, k, a) in d.members:
                if a == 'internal' and k not in ('init', 'case') and m in c.dotted and not OPEN & acc[(d.base, m)] and (
                        (m not in STDLIB and len(declared[m]) == 1) or (d.base in c.bare and re.search(rf'\b{d.base}\s*\.\s*{m}\b', c.text))):
                    out.add((d, f'{d.base}.{m}'))
            if d.kind in ('struct', 'class', 'actor') and d.name in c.bare - c.nested and not OPEN & acc[(d.base, 'init')] \
                    and re.search(rf'(?<![.\w]){d.base}\s*(?:\.init)?\s*\(', c.text):
                out.add((d, f'{d.base}.init'))
    return out

def declared_everywhere(chunks): return index(chunks + load('Sources/GDL90', 'GDL90/'))[2]

def report():
    chunks = load(LIB); fe = graph(chunks, index(chunks), key=lambda c: c.orig.split('/')[0]); folders = sorted({c.orig.split('/')[0] for c in chunks})
    print('### 1. Folder graph today\n')
    for a in folders: print(f'- {a} -> ' + ', '.join(f'{b} {len(fe[a][b])}' for b in sorted(fe[a])))
    print('\nStrongly connected components:', ' | '.join(', '.join(s) for s in tarjan(folders, fe)))
    chunks = apply_plan(load(LIB)); idx = index(chunks); me, mu = graph(chunks, idx), graph(chunks, idx, 1)
    print('\n### 2. Module graph after the plan\n')
    for a in ranked(MODULES): print(f'- {a} -> ' + ', '.join(f'{b} {len(me[a][b])}' for b in ranked(me[a])))
    bad = [(a, b) for a in me for b in me[a] if MODULES[b] >= MODULES[a]]
    print(f'\nCycles: {[s for s in tarjan(MODULES, me) if len(s) > 1] or "none"}. Edges against the layering: {bad or "none"}. '
          f'Unsure member mentions against the layering (left out): {sum(len(mu[a][b]) for a in mu for b in mu[a] if MODULES[b] >= MODULES[a])}, '
          f'names {sorted({x[1] for a in mu for b in mu[a] if MODULES[b] >= MODULES[a] for x in mu[a][b]})}')
    print('\n| module | files | folders inside | imports (besides Foundation, Glibc, Darwin, Dispatch, Synchronization) |\n|---|---|---|---|')
    for m in ranked(MODULES):
        fs = {c.file for c in chunks if module(c.file) == m}
        imps = {i for f in {c.orig for c in chunks if c.file == new_path(c.orig) and module(c.file) == m}
                for i in re.findall(r'^\s*import (\w+)', open(f'{LIB}/{f}').read(), re.M)}
        print(f'| {m} | {len(fs)} | {", ".join(sorted({f.split("/")[1] for f in fs}))} | {", ".join(sorted(imps - SYSTEM))} |')
    print('\n### 3. Moves: who uses what moves, and what pinned it (names declared above its folder\'s module)\n')
    moved, sure = collections.defaultdict(list), {c: mentions(c, idx)[0] for c in chunks}
    for c in chunks:
        if c.file != new_path(c.orig) or c.orig in FILES: moved[(c.orig, c.file)].append(c)
    for (old, new), cs in sorted(moved.items(), key=lambda x: (MODULES[module(x[0][1])], x[0][1])):
        stay, used, needs = home(old), DD(), set()
        for c in cs:
            for u in chunks:
                if module(u.file) != module(new) and c in sure[u]: used[module(u.file)] |= sure[u][c]
            needs |= {n for d, ns in sure[c].items() if d.orig != c.orig and module(d.file) != stay and MODULES[module(d.file)] >= MODULES[stay] for n in ns}
        what = f'{old}` ({", ".join(c.name for c in cs)})' if new != new_path(old) else f'{old}`'
        print(f'- `{what} -> `{new}`: ' + ('; '.join(f'{m} uses {", ".join(sorted(n))}' for m, n in sorted(used.items())) or 'no other module uses it')
              + (f'; needs {", ".join(sorted(needs))}' if needs else ''))
    print('\n### 4. Internal declarations used across the new boundaries (each needs `package`)\n')
    by = DD()
    for d, n in internal_uses(chunks, chunks, declared_everywhere(chunks), lambda c, d: module(c.file) == module(d.file)): by[module(d.file)].add(n)
    for m in ranked(MODULES): print(f'- {m} ({len(by[m])}): ' + ', '.join(sorted(by[m])))
    print('\n### 5. Other targets: files that mention each module; internals they use\n')
    for t in OTHERS:
        users = load(f'Sources/{t}', t.split('/')[-1] + '/'); files, internal, testable = DD(), DD(), DD()
        for c in users: files[c.file] |= {module(d.file) for d in mentions(c, idx)[0]}
        decl = declared_everywhere(chunks + users)
        for c in users:
            for d, n in internal_uses([c], chunks, decl): internal[module(d.file)].add(n); testable[module(d.file)].add(c.file)
        mods = collections.Counter(m for f in files.values() for m in f)
        print(f'- {t.split("/")[-1]} ({len(files)} files): ' + (', '.join(f'{m} {mods[m]}' for m in ranked(mods)) or 'none')
              + (f'; internals used by {len(set().union(*testable.values()))} files: ' + '; '.join(
                  f'{m} {len(v)} in {len(testable[m])} files ({", ".join(sorted(v)[:5])}, …)' for m, v in sorted(internal.items())) if internal else ''))

if __name__ == '__main__':
    if '--moves' in sys.argv:   # folders first, then the files that leave their folder's module
        for f, m in FOLDERS.items(): print(f'mkdir -p {LIB}/{m} && git mv {LIB}/{f} {LIB}/{m}/{f}')
        for old, new in FILES.items(): print(f'mkdir -p {LIB}/{os.path.dirname(new)} && git mv {LIB}/{FOLDERS[old.split("/")[0]]}/{old} {LIB}/{new}')
    elif '--imports' in sys.argv or '--write-imports' in sys.argv:   # --write-imports: after the split only
        chunks = apply_plan(load(LIB)); idx, need = index(chunks), DD()
        for c in chunks + [c for t in OTHERS for c in load(f'Sources/{t}', os.path.normpath(f'Sources/{t}') + '/')]:
            path = c.file if c.file.startswith(('Sources/', 'Tests/')) else f'{LIB}/{c.file}'
            need[path] |= {module(d.file) for d in mentions(c, idx)[0]} - {module(c.file)}
        for f in sorted(need):
            if '--imports' in sys.argv: print(f, ' '.join(ranked(need[f]))); continue
            assert os.path.isdir(f'{LIB}/GatewaySupport'), 'move the files first'
            src, at = open(f).read(), '@testable import' if f.startswith('Tests/') else 'import'
            new = ''.join(f'{at} {m}\n' for m in ranked(need[f]))
            old = re.search(r'^(@testable )?import TrafficGateway\n', src, re.M)
            src = src[:old.start()] + new + src[old.end():] if old else new + src
            open(f, 'w').write(src)
    else: report()
