#!/usr/bin/env python3
"""Fails on a dead relative link in the README, BENCHMARKS.md and the docs/ pages (issue 53: the
README links one page a subject): every `[text](path)` and `![alt](path)` whose target is not a
URL must name a file of the repository, and its `#anchor`, when it has one, a heading of that
Markdown file (GitHub's anchors: lower case, punctuation dropped, spaces as '-').
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)\)')


def anchors(path):
    found = set()
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        title = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
        found.add(slug)
    return found


def pages():
    yield os.path.join(ROOT, "README.md")
    yield os.path.join(ROOT, "BENCHMARKS.md")
    for name in sorted(os.listdir(os.path.join(ROOT, "docs"))):
        if name.endswith(".md"):
            yield os.path.join(ROOT, "docs", name)


def main():
    problems = []
    checked = 0
    for page in pages():
        if not os.path.exists(page):
            continue
        text = open(page, encoding="utf-8").read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target):
                continue
            checked += 1
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            where = os.path.relpath(page, ROOT)
            if not os.path.exists(full):
                problems.append(f"{where}: {target}: no such file")
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                problems.append(f"{where}: {target}: no heading #{anchor} in {os.path.relpath(full, ROOT)}")
    for p in problems:
        print(f"check-links: {p}", file=sys.stderr)
    print(f"check-links: {checked} relative links, {len(problems)} dead")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
