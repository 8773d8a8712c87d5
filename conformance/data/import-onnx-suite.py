#!/usr/bin/python3
"""Import an onnx backend-test suite (node + simple) from an onnx source checkout or archive.

  import-onnx-suite.py SOURCE OUT_DIR

SOURCE is an onnx source directory (holding onnx/backend/test/data/) or a .tar, .tar.gz, .tar.xz
or .zip archive of one (e.g. ../shared/onnx/onnx-1.19.1-backend-test-data.tar.xz). OUT_DIR gets
node/ and simple/ in the layout `sonnx conform` reads. Only regular files under
onnx/backend/test/data/{node,simple}/ are taken; a member whose path is absolute, climbs out with
"..", or is a link is refused, so a hostile archive cannot write outside OUT_DIR.
Exit codes: 0 imported, 2 unreadable source or nothing to import.
"""
import shutil
import sys
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

SUITES = ("node", "simple")
MARKER = ("onnx", "backend", "test", "data")


def suite_relative(name):
    """The path below .../onnx/backend/test/data/ for a member of a suite we import, else None."""
    p = PurePosixPath(name)
    if p.is_absolute() or ".." in p.parts:
        raise ValueError(f"refusing archive member '{name}': absolute or climbing path")
    parts = p.parts
    for i in range(len(parts) - len(MARKER)):
        if parts[i:i + len(MARKER)] == MARKER:
            rest = parts[i + len(MARKER):]
            if len(rest) >= 2 and rest[0] in SUITES:
                return PurePosixPath(*rest)
    return None


def write(out, rel, data):
    dest = out / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(data)


def from_tar(src, out):
    count = 0
    with tarfile.open(src) as tar:
        for m in tar:
            rel = suite_relative(m.name)
            if rel is None or m.isdir():
                continue
            if not m.isfile():
                raise ValueError(f"refusing archive member '{m.name}': not a regular file")
            write(out, rel, tar.extractfile(m).read())
            count += 1
    return count


def from_zip(src, out):
    count = 0
    with zipfile.ZipFile(src) as z:
        for info in z.infolist():
            rel = suite_relative(info.filename)
            if rel is None or info.is_dir():
                continue
            write(out, rel, z.read(info))
            count += 1
    return count


def from_dir(src, out):
    data = src.joinpath(*MARKER)
    if not data.is_dir():
        raise ValueError(f"{src} holds no onnx/backend/test/data directory")
    count = 0
    for suite in SUITES:
        if (data / suite).is_dir():
            shutil.copytree(data / suite, out / suite, dirs_exist_ok=True, symlinks=False)
            count += sum(1 for p in (out / suite).rglob("*") if p.is_file())
    return count


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    src, out = Path(sys.argv[1]), Path(sys.argv[2])
    try:
        out.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            count = from_dir(src, out)
        elif zipfile.is_zipfile(src):
            count = from_zip(src, out)
        elif src.is_file() and tarfile.is_tarfile(src):
            count = from_tar(src, out)
        else:
            raise ValueError(f"{src} is neither an onnx source directory nor a tar or zip archive")
    except (OSError, ValueError, tarfile.TarError, zipfile.BadZipFile, EOFError) as e:
        print(f"import-onnx-suite: {e}", file=sys.stderr)
        return 2
    if count == 0:
        print(f"import-onnx-suite: {src} holds no node or simple tests", file=sys.stderr)
        return 2
    tests = {s: sum(1 for p in (out / s).iterdir() if p.is_dir()) if (out / s).is_dir() else 0 for s in SUITES}
    print(f"import-onnx-suite: {tests['node']} node and {tests['simple']} simple tests in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
