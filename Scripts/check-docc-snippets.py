#!/usr/bin/env python3
"""Checks that the DocC articles' Swift code blocks are the code the article tests run.

Usage: check-docc-snippets.py [CATALOG_DIR ...] [--tests TEST_DIR]

Every ```swift block of an article (CATALOG_DIR/*.md; by default the catalogs of both
products, Sources/ReactiveState/ReactiveState.docc and
Sources/ReactiveStateMacrosFree/ReactiveStateMacrosFree.docc) must be preceded by one of two
HTML comments, which DocC drops without a warning:

  <!-- snippet: NAME -->             the block is compiled and run by a test: it must equal, line
                                     for line, the lines between `// DocC: ARTICLE/NAME` and
                                     `// DocC: end` in a Swift file of TEST_DIR (default
                                     Tests/ReactiveStateTests/Docs), ARTICLE being the article's
                                     file name without `.md`;
  <!-- snippet: none (REASON) -->    the block is exempt, for the REASON given (code for another
                                     module, such as SwiftUI, Combine or a package manifest).

A test block may sit inside a type or a function: the indentation of its `// DocC:` marker is
removed from each of its lines before the comparison (a line that lacks it is an error). Every
test block must name a marked block of an existing article. Exits 1 and names each problem
(for a difference, the first differing line) otherwise.
"""
import glob
import os
import re
import sys

MARKER = re.compile(r"^<!-- snippet: (?:none \((?P<reason>[^)]+)\)|(?P<name>[\w-]+)) -->\s*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*(\S*)")
TEST_MARKER = re.compile(r"^(?P<indent>\s*)// DocC: (?P<label>(?:[\w-]+/[\w-]+)|end)\s*$")


def article_blocks(path, problems, exempt):
    """Returns {ARTICLE/NAME: lines} for the article's marked blocks; appends each exempt block's
    place and reason to `exempt`, and each unmarked block to `problems`."""
    article = os.path.splitext(os.path.basename(path))[0]
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, marker, index = {}, None, 0
    while index < len(lines):
        line = lines[index]
        fence = FENCE.match(line)
        found = MARKER.match(line)
        if found:
            if marker:
                problems.append(f"{path}:{marker[0]}: marker not followed by a ```swift block")
            marker = (index + 1, found.group("name"), found.group("reason"))
        elif fence:
            closing, start = fence.group(1), index + 1
            index += 1
            body = []
            while index < len(lines) and not lines[index].strip().startswith(closing):
                body.append(lines[index])
                index += 1
            if fence.group(2) == "swift":
                if not marker:
                    problems.append(
                        f"{path}:{start}: ```swift block without `<!-- snippet: NAME -->` or "
                        "`<!-- snippet: none (REASON) -->` before it")
                elif marker[2]:
                    exempt.append(f"{path}:{start} ({marker[2]})")
                else:
                    label = f"{article}/{marker[1]}"
                    if label in blocks:
                        problems.append(f"{path}:{marker[0]}: snippet '{marker[1]}' named twice")
                    blocks[label] = body
            elif marker:
                problems.append(f"{path}:{marker[0]}: marker before a block that is not ```swift")
            marker = None
        elif line.strip() and marker:
            problems.append(f"{path}:{marker[0]}: marker not followed by a ```swift block")
            marker = None
        index += 1
    if marker:
        problems.append(f"{path}:{marker[0]}: marker not followed by a ```swift block")
    return blocks


def test_blocks(path, problems):
    """Returns {ARTICLE/NAME: (lines, where)} for the test file's blocks, dedented."""
    blocks, current = {}, None
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        marker = TEST_MARKER.match(line)
        if marker and marker.group("label") == "end":
            if current:
                label, indent, start, body = current
                if label in blocks:
                    problems.append(f"{path}:{start}: test block '{label}' appears twice")
                blocks[label] = (body, f"{path}:{start}")
            current = None
        elif marker:
            if current:
                problems.append(f"{path}:{current[2]}: block '{current[0]}' has no `// DocC: end`")
            current = (marker.group("label"), marker.group("indent"), number, [])
        elif current:
            indent = current[1]
            if line.strip() == "":
                current[3].append("")
            elif line.startswith(indent):
                current[3].append(line[len(indent):])
            else:
                problems.append(
                    f"{path}:{number}: line is indented less than its `// DocC:` marker")
                current[3].append(line.lstrip())
    if current:
        problems.append(f"{path}:{current[2]}: block '{current[0]}' has no `// DocC: end`")
    return blocks


def main(argv):
    args = argv[1:]
    tests_dir = "Tests/ReactiveStateTests/Docs"
    if "--tests" in args:
        at = args.index("--tests")
        tests_dir = args[at + 1]
        del args[at:at + 2]
    catalogs = args or [
        "Sources/ReactiveState/ReactiveState.docc",
        "Sources/ReactiveStateMacrosFree/ReactiveStateMacrosFree.docc",
    ]
    problems, exempt = [], []
    articles = {}
    for catalog in catalogs:
        for path in sorted(glob.glob(os.path.join(catalog, "*.md"))):
            articles.update(article_blocks(path, problems, exempt))
    tests = {}
    for path in sorted(glob.glob(os.path.join(tests_dir, "*.swift"))):
        tests.update(test_blocks(path, problems))
    for label in sorted(set(articles) | set(tests)):
        if label not in tests:
            problems.append(f"article snippet '{label}' has no `// DocC: {label}` block in {tests_dir}")
        elif label not in articles:
            problems.append(f"{tests[label][1]}: test block '{label}' names no marked article block")
        else:
            a = [line.rstrip() for line in articles[label]]
            b = [line.rstrip() for line in tests[label][0]]
            if a != b:
                for index, (x, y) in enumerate(zip(a + [None] * len(b), b + [None] * len(a))):
                    if x != y:
                        problems.append(
                            f"snippet '{label}' differs at line {index + 1}:\n"
                            f"  article: {x}\n  test:    {y}")
                        break
    for problem in problems:
        print("error: " + problem)
    print(f"DocC snippets: {len(articles)} checked against {tests_dir}, {len(exempt)} exempt:")
    for place in exempt:
        print("  " + place)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
