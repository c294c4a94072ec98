#!/usr/bin/env python3
"""Checks that the README's tour snippets are the code the tour tests run.

Usage: check-readme-snippets.py [README] [TEST_FILE]

A README code block preceded by `<!-- snippet: NAME -->` must equal, line for line, the lines
between `// README: NAME` and `// README: end` in the test file
(Tests/ReactiveStateTests/Docs/ReadmeTourTests.swift), and every test-file block must appear
in the README. Exits 1 and names the first differing line otherwise.
"""
import re
import sys


def readme_snippets(text):
    snippets = {}
    pattern = re.compile(r"<!-- snippet: ([\w-]+) -->\s*\n```swift\n(.*?)\n```", re.S)
    for match in pattern.finditer(text):
        snippets[match.group(1)] = match.group(2).split("\n")
    return snippets


def test_snippets(text):
    snippets, name, lines = {}, None, []
    for line in text.split("\n"):
        marker = re.match(r"^// README: ([\w-]+)\s*$", line)
        if marker and marker.group(1) == "end":
            if name:
                snippets[name] = lines
            name, lines = None, []
        elif marker:
            name, lines = marker.group(1), []
        elif name:
            lines.append(line)
    return snippets


def main(argv):
    readme_path = argv[1] if len(argv) > 1 else "README.md"
    test_path = argv[2] if len(argv) > 2 else "Tests/ReactiveStateTests/Docs/ReadmeTourTests.swift"
    readme = readme_snippets(open(readme_path, encoding="utf-8").read())
    tests = test_snippets(open(test_path, encoding="utf-8").read())
    problems = []
    for name in sorted(set(readme) | set(tests)):
        if name not in tests:
            problems.append(f"README snippet '{name}' has no block in {test_path}")
        elif name not in readme:
            problems.append(f"test block '{name}' is not in {readme_path}")
        else:
            a = [line.rstrip() for line in readme[name]]
            b = [line.rstrip() for line in tests[name]]
            if a != b:
                for index, (x, y) in enumerate(zip(a + [None] * len(b), b + [None] * len(a))):
                    if x != y:
                        problems.append(
                            f"snippet '{name}' differs at line {index + 1}:\n  README: {x}\n  test:   {y}")
                        break
    for problem in problems:
        print("error: " + problem)
    print(f"README snippets: {len(tests)} checked against {test_path}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
