#!/usr/bin/env python3
"""Lists the module -> module edges of one folder of Rust or JavaScript modules and the cycles
among them, or checks every folder of some source trees for cycles.

A module is a file of the folder or a sub-folder (all of its files).

Rust: an edge m -> n is a path to n in m's code outside its test module: `crate::<prefix>::n`,
or `super::n` from a file of the folder (`super::super::n` from a file of a sub-folder, and so
on), also as the first name of a path in a `{…}` group; a name the folder's root file
re-exports (`pub use n::Name;`) is a path into n (`crate::Name` is `crate::n::Name`). Comments
are ignored, and so are the modules compiled only for tests (`#[cfg(test)] mod n;` in the folder's mod.rs, lib.rs or
main.rs).

JavaScript (a folder of .mjs/.js files and no .rs): an edge m -> n is a relative import of a
file of n (`import … from './n.mjs'`, `import('./n/index.mjs')`, `export … from`).

Usage: scripts/module-edges.py DIR PREFIX
  PREFIX: the folder's module path from the crate root, "" for src/ itself (Rust only), e.g.
  scripts/module-edges.py crates/imr-core/src/ingest ingest
  scripts/module-edges.py crates/imr-microdata/src ""
  scripts/module-edges.py e2e ""
Exit status 1 when there is a cycle.

Usage: scripts/module-edges.py --check ROOT...
  Every folder under each ROOT (a crate's or the page's src/, whose folders' prefixes follow
  from their paths, or a JavaScript folder), `bin/` folders aside (each file its own crate):
  prints the folders with a cycle and exits 1 when there is one.
"""
import os
import re
import sys


def test_only(folder):
    """The modules the folder's root file declares for tests only (`#[cfg(test)] mod n;`)."""
    names = set()
    for root in ("mod.rs", "lib.rs", "main.rs"):
        path = os.path.join(folder, root)
        if os.path.exists(path):
            text = open(path, encoding="utf-8").read()
            names.update(re.findall(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod (\w+);", text))
    return names


def modules(folder):
    found = {}
    tests = test_only(folder)
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".rs") and name[:-3] in tests:
            continue
        if os.path.isdir(path) and name in tests:
            continue
        if name.endswith(".rs") and name not in ("lib.rs", "mod.rs", "main.rs"):
            found[name[:-3]] = [path]
        elif os.path.isdir(path):
            found[name] = [
                os.path.join(root, f)
                for root, _, files in os.walk(path)
                for f in files
                if f.endswith(".rs")
            ]
    return found


def reexports(folder, mods):
    """The names the folder's root file re-exports from its modules (`pub use m::{A, b::C};`),
    each with the module it comes from, so that `crate::A` counts as a path into `m`."""
    names = {}
    for root in ("mod.rs", "lib.rs", "main.rs"):
        path = os.path.join(folder, root)
        if not os.path.exists(path):
            continue
        text = re.sub(r"//[^\n]*", "", open(path, encoding="utf-8").read())
        for m, rest in re.findall(r"\bpub(?:\([^)]*\))?\s+use\s+(?:self::)?(\w+)::([^;]*);", text):
            if m not in mods:
                continue
            for name in re.findall(r"\b(\w+)\s*(?=,|}|$|\s+as\b)", rest):
                names.setdefault(name, m)
            for alias in re.findall(r"\bas\s+(\w+)", rest):
                names.setdefault(alias, m)
    return names


def edges(folder, prefix):
    mods = modules(folder)
    exported = reexports(folder, mods)
    base = "crate::" + (prefix + "::" if prefix else "")
    out = {m: set() for m in mods}
    for m, files in mods.items():
        for path in files:
            text = open(path, encoding="utf-8").read()
            text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
            text = re.sub(r"//[^\n]*", "", text)
            # How many `super::` lead from this file to the folder's module.
            inner = os.path.relpath(os.path.dirname(path), folder)
            depth = 0 if inner == "." else inner.count(os.sep) + 1
            ups = depth if os.path.basename(path) == "mod.rs" else depth + 1
            parent = r"\b" + "super::" * ups
            found = []
            for start in (re.escape(base), parent):
                found += re.findall(start + r"(\w+)", text)
                # `use super::{a::X, b}`: the names that open each path of the group
                for group in re.findall(start + r"\{([^}]*)\}", text):
                    found += re.findall(r"(?:^|,)\s*(\w+)", group)
            found = [exported.get(t, t) for t in found]
            out[m].update(t for t in found if t in mods and t != m)
    return out


JS_EXTENSIONS = (".mjs", ".js")
JS_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}/[^'"]+)['"]""", re.M
)


def is_js_folder(folder):
    names = os.listdir(folder)
    return any(n.endswith(JS_EXTENSIONS) for n in names) and not any(n.endswith(".rs") for n in names)


def js_edges(folder):
    """Module -> module edges of a folder of JavaScript modules (relative imports)."""
    mods = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(JS_EXTENSIONS):
            mods[name] = [path]
        elif os.path.isdir(path):
            mods[name] = [
                os.path.join(root, f)
                for root, _, files in os.walk(path)
                for f in files
                if f.endswith(JS_EXTENSIONS)
            ]
    owner = {os.path.realpath(f): m for m, files in mods.items() for f in files}
    out = {m: set() for m in mods}
    for m, files in mods.items():
        for path in files:
            text = open(path, encoding="utf-8").read()
            text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
            text = re.sub(r"^\s*//[^\n]*", "", text, flags=re.M)
            for target in JS_IMPORT.findall(text):
                resolved = os.path.realpath(os.path.join(os.path.dirname(path), target))
                n = owner.get(resolved)
                if n is not None and n != m:
                    out[m].add(n)
    return out


def folder_edges(folder, prefix):
    return js_edges(folder) if is_js_folder(folder) else edges(folder, prefix)


def check(roots):
    """Every folder under each root with its cycles; True when there is none."""
    clean = True
    for root in roots:
        for folder, dirs, _ in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in ("bin", "node_modules", "fixtures", "screenshots"))
            inner = os.path.relpath(folder, root)
            prefix = "" if inner == "." else inner.replace(os.sep, "::")
            found = cycles(folder_edges(folder, prefix))
            if found:
                clean = False
                print(f"{folder}: import circle among {found}")
    print("import circles:", "none" if clean else "see above")
    return clean


def cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


if __name__ == "__main__":
    if sys.argv[1] == "--check":
        sys.exit(0 if check(sys.argv[2:]) else 1)
    graph = folder_edges(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "")
    for m in sorted(graph):
        if graph[m]:
            print(f"{m} -> {', '.join(sorted(graph[m]))}")
    found = cycles(graph)
    print("cycles:", found if found else "none")
    sys.exit(1 if found else 0)
