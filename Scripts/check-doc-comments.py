#!/usr/bin/env python3
"""Fails when a public symbol of the given modules has no doc comment of its own.

Usage: check-doc-comments.py SYMBOL_GRAPH_DIR MODULE [MODULE ...]

Reads MODULE.symbols.json and MODULE@Other.symbols.json (extensions of other modules' types)
from the directory `swift package dump-symbol-graph` writes. A symbol counts as documented when
it carries a `///` comment written on its own declaration. Skipped, because the symbol graph
lists them but the source cannot document them: members the compiler synthesizes (no source
location) and members a type inherits from a protocol extension or another module (their
documentation lives at the origin, which is checked where it is declared).
"""
import glob
import json
import os
import sys

# Lines allowed between the end of the comment and the declaration (attributes such as
# `@propertyWrapper`, `@inlinable`, `@available(...)` spread over a few lines).
MAX_GAP = 8


def own_comment(symbol):
    comment = symbol.get("docComment")
    location = symbol.get("location")
    if not comment or not location:
        return False
    lines = [line for line in comment.get("lines", []) if line.get("text", "").strip()]
    if not lines:
        return False
    if comment.get("uri", location["uri"]) != location["uri"]:
        return False  # inherited from a declaration elsewhere
    end = comment["lines"][-1].get("range", {}).get("end", {}).get("line")
    if end is None:
        return True
    gap = location["position"]["line"] - end
    return 0 < gap <= MAX_GAP


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    directory, modules = argv[1], argv[2:]
    missing, checked = [], 0
    for module in modules:
        paths = glob.glob(os.path.join(directory, f"{module}.symbols.json"))
        paths += glob.glob(os.path.join(directory, f"{module}@*.symbols.json"))
        if not paths:
            print(f"error: no symbol graph for {module} in {directory}")
            return 2
        for path in paths:
            with open(path, encoding="utf-8") as file:
                graph = json.load(file)
            inherited = {
                relation["source"]
                for relation in graph.get("relationships", [])
                if "sourceOrigin" in relation
            }
            for symbol in graph.get("symbols", []):
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                precise = symbol["identifier"]["precise"]
                if precise in inherited or "::SYNTHESIZED::" in precise:
                    continue
                if "location" not in symbol:
                    continue
                checked += 1
                if not own_comment(symbol):
                    location = symbol["location"]
                    file_path = location["uri"].replace("file://", "")
                    line = location["position"]["line"] + 1
                    name = ".".join(symbol["pathComponents"])
                    missing.append(f"{os.path.relpath(file_path)}:{line}: {module}.{name}")
    for entry in sorted(missing):
        print(f"error: public symbol without a doc comment: {entry}")
    print(f"doc comments: {checked - len(missing)}/{checked} public symbols of {', '.join(modules)} documented")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
