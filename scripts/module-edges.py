#!/usr/bin/env python3
"""Lists the module -> module edges of one folder of Rust modules and the cycles among them.

An edge m -> n is a path to n in m's code outside its test module: `crate::<prefix>::n`, or
`super::n` from a file of the folder (`super::super::n` from a file of a sub-folder, and so
on), also as the first name of a path in a `{…}` group. A module is a file of the folder or a
sub-folder (all of its files). Comments are ignored.

Usage: scripts/module-edges.py DIR PREFIX
  PREFIX: the folder's module path from the crate root, "" for src/ itself, e.g.
  scripts/module-edges.py crates/imr-core/src/ingest ingest
  scripts/module-edges.py crates/imr-microdata/src ""
Exit status 1 when there is a cycle.
"""
import os
import re
import sys


def modules(folder):
    found = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
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


def edges(folder, prefix):
    mods = modules(folder)
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
            out[m].update(t for t in found if t in mods and t != m)
    return out


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
    graph = edges(sys.argv[1], sys.argv[2])
    for m in sorted(graph):
        if graph[m]:
            print(f"{m} -> {', '.join(sorted(graph[m]))}")
    found = cycles(graph)
    print("cycles:", found if found else "none")
    sys.exit(1 if found else 0)
