#!/usr/bin/env python3
"""Functions that nothing calls (issue 44.6): every `fn` declared `pub`, `pub(crate)` or
`pub(super)` in the Rust sources of the page and the crates whose name appears nowhere else in
the tree (Rust of src/, crates/, tests, benches, examples; and the JavaScript of e2e/, bench/,
scripts/, for functions exported to the page's JavaScript). A name used once is its definition:
the function is dead, or only its tests call it (then it belongs in the tests).

Names are matched as whole words, so a function shares its count with every other item of the
same name (a `new` is never reported): the check finds the uncalled, never a false caller.
(Methods of a trait's impl are never `pub`, so they are not looked at.) Exits 1 naming each one.
  python3 scripts/uncalled.py [root]
"""
import re
import sys
from collections import Counter
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
SKIP = {"target", "node_modules", "dist", ".git", "tools"}


def files(patterns):
    for pattern in patterns:
        for path in root.glob(pattern):
            if path.is_file() and not SKIP.intersection(path.relative_to(root).parts):
                yield path


rust = sorted(set(files(["src/**/*.rs", "crates/**/*.rs"])))
script = sorted(set(files(["e2e/**/*.mjs", "bench/**/*.mjs", "bench/**/*.html", "scripts/**/*.mjs"])))
DEF = re.compile(r"^\s*pub(?:\((?:crate|super)\))?\s+(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+([A-Za-z_][A-Za-z0-9_]*)")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

words = Counter()
for path in rust + script:
    words.update(WORD.findall(path.read_text(encoding="utf-8", errors="replace")))

found = []
for path in rust:
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        m = DEF.match(line)
        if m and words[m.group(1)] <= 1:
            found.append(f"{path.relative_to(root)}:{number}: {m.group(1)}")

if found:
    print("functions nothing calls (remove them, or move them into the tests that use them):")
    print("\n".join(found))
    sys.exit(1)
print(f"uncalled: every public function of {len(rust)} Rust files has a caller")
