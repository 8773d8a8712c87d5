#!/usr/bin/env python3
"""Checks that every repository path the documentation names exists.

Usage: check-doc-paths.py [--root DIR]

DIR is the repository root (default: the parent of this script's folder). Scanned: DIR/README.md
and every DIR/docs/**/*.md. Each missing path is printed as `FILE:LINE: PATH`, then a one-line
summary; the exit code is 1 when a path is missing, 0 otherwise (2 on a bad command line).

What counts as a path (the rules are deliberately few, so the check has no false positives):

1. URLs (`scheme://...`) are removed from a line before anything else.
2. A candidate is a maximal run of path characters: letters, digits, `_ . - / * $ ~ < >`, and
   brace groups such as `{h,cpp}` (a comma ends a candidate outside braces). Backticks, spaces,
   quotes, parentheses, `#` anchors and `:` line suffixes therefore end it. Leading `*` (Markdown
   emphasis) and trailing `.` (end of a sentence) are dropped.
3. A candidate is checked only when it contains a `/` and its first component is a top-level
   folder of DIR. So `sonnx run`, `K/N`, `rtol/atol`, `onnx/onnx` and absolute paths are never
   checked. Top-level folders that are hidden or build outputs (`build`, `build-*`, `out`) do not
   count.
4. Skipped: candidates holding `<` or `>` (placeholders such as `reference/ops/<Op>.cpp`), `$`
   (variables) or `~` (home); candidates starting with `../shared` (data beside the repository);
   and candidates with a component that DIR/.gitignore ignores (generated files, such as
   `node_modules`): a `.gitignore` line `/x/` matches the first component, `x/` or `x` any
   component (shell wildcards allowed).
5. A candidate starting with `./` or `../` is taken relative to the Markdown file's folder (as a
   link is), every other one relative to DIR; it must stay inside DIR.
6. Brace groups expand (`reference/model/loader.{h,cpp}` names two files, both must exist). A
   candidate with `*` must match at least one file. A trailing `/` names a folder, which must
   exist as one.
"""
import argparse
import fnmatch
import glob
import itertools
import os
import re
import sys

URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s)>\]`'\"]*")
CANDIDATE = re.compile(r"(?:[\w.\-/*$~<>]|\{[^{}\s]*\})+")
BRACES = re.compile(r"\{([^{}]*)\}")
BUILD_OUTPUTS = ("build", "build-*", "out")


def top_level_folders(root):
    folders = set()
    for name in os.listdir(root):
        if name.startswith(".") or not os.path.isdir(os.path.join(root, name)):
            continue
        if any(fnmatch.fnmatchcase(name, p) for p in BUILD_OUTPUTS):
            continue
        folders.add(name)
    return folders


def gitignore_patterns(root):
    """(anchored, pattern) pairs from DIR/.gitignore: anchored ones match the first component."""
    patterns = []
    try:
        with open(os.path.join(root, ".gitignore"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return patterns
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("!"):
            continue
        anchored = line.startswith("/")
        pattern = line.strip("/")
        if pattern and "/" not in pattern:  # only one-component patterns; others are not used here
            patterns.append((anchored, pattern))
    return patterns


def ignored(components, patterns):
    for anchored, pattern in patterns:
        names = components[:1] if anchored else components
        if any(fnmatch.fnmatchcase(c, pattern) for c in names):
            return True
    return False


def expand_braces(path):
    m = BRACES.search(path)
    if not m:
        return [path]
    head, tail = path[: m.start()], path[m.end():]
    return list(itertools.chain.from_iterable(expand_braces(head + alt + tail) for alt in m.group(1).split(",")))


def exists(root, rel):
    folder = rel.endswith("/")
    full = os.path.join(root, rel.rstrip("/"))
    if "*" in rel:
        matches = glob.glob(full)
        return any(os.path.isdir(p) for p in matches) if folder else bool(matches)
    return os.path.isdir(full) if folder else os.path.exists(full)


def candidates(line):
    for m in CANDIDATE.finditer(URL.sub(" ", line)):
        token = m.group(0).lstrip("*").rstrip(".")
        if token:
            yield token


def paths_to_check(token, md_dir, root, folders, patterns):
    """The root-relative path a candidate names, or None when the rules say not to check it."""
    if "/" not in token or any(c in token for c in "<>$~") or token.startswith("/"):
        return None
    if token.startswith("../shared"):
        return None
    if token.startswith("./") or token.startswith("../"):
        full = os.path.normpath(os.path.join(md_dir, token))
        rel = os.path.relpath(full, root)
        if rel == ".." or rel.startswith(".." + os.sep):
            return None
        rel = rel.replace(os.sep, "/") + ("/" if token.endswith("/") else "")
    else:
        rel = token
    components = [c for c in rel.split("/") if c]
    if not components or components[0] not in folders or ignored(components, patterns):
        return None
    return rel


def markdown_files(root):
    files = []
    readme = os.path.join(root, "README.md")
    if os.path.isfile(readme):
        files.append(readme)
    files += sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    return files


def main():
    default_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description="Check that the repository paths named in README.md and docs/ exist.")
    ap.add_argument("--root", default=default_root, help="repository root (default: %(default)s)")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if not os.path.isdir(root):
        print(f"check-doc-paths: {root} is not a folder", file=sys.stderr)
        return 2
    folders = top_level_folders(root)
    patterns = gitignore_patterns(root)
    files = markdown_files(root)
    checked = 0
    missing = []
    for md in files:
        shown = os.path.relpath(md, root)
        with open(md, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                seen = set()
                for token in candidates(line):
                    rel = paths_to_check(token, os.path.dirname(md), root, folders, patterns)
                    if rel is None or rel in seen:
                        continue
                    seen.add(rel)
                    checked += 1
                    if not all(exists(root, p) for p in expand_braces(rel)):
                        missing.append(f"{shown}:{number}: {token}")
    for m in missing:
        print(m)
    print(f"check-doc-paths: {checked} paths checked in {len(files)} files, {len(missing)} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
