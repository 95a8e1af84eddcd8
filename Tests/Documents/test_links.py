"""The documents' links and the repository paths they name lead somewhere: a newcomer who follows
one reaches the file and the heading it promises."""
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted(
    Path(p) for p in subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True,
                                    check=True).stdout.split()
)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
# Paths named in text, as `Sources/…` or docs/guide.md: top-level folders of this repository only.
TOP_LEVEL = sorted(p.name for p in ROOT.iterdir() if not p.name.startswith(".") and p.is_dir())
NAMED_PATH = re.compile(r"(?<![\w/.-])((?:%s)/[\w./+-]*[\w+-])" % "|".join(map(re.escape, TOP_LEVEL)))
FENCE = re.compile(r"^(```|~~~)")


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen, found, fenced = {}, set(), False
    for line in (ROOT / path).read_text().splitlines():
        if FENCE.match(line):
            fenced = not fenced
        if fenced or not line.startswith("#"):
            continue
        base = slug(line.lstrip("#"))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def prose(path):
    """The document's lines outside fenced code blocks, with their numbers."""
    fenced = False
    for number, line in enumerate((ROOT / path).read_text().splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def test_documents_are_found():
    assert Path("README.md") in DOCUMENTS and Path("Benchmarks/README.md") in DOCUMENTS


@pytest.mark.parametrize("document", DOCUMENTS, ids=str)
def test_links_lead_to_a_file_and_heading(document):
    broken = []
    for number, line in prose(document):
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            destination = (ROOT / document.parent / file_part).resolve() if file_part else ROOT / document
            if not destination.exists():
                broken.append(f"{document}:{number}: {target} (no such file)")
            elif anchor and destination.suffix == ".md" and anchor not in anchors(destination.relative_to(ROOT)):
                broken.append(f"{document}:{number}: {target} (no heading #{anchor})")
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("document", DOCUMENTS, ids=str)
def test_paths_named_in_text_exist(document):
    missing = []
    for number, line in prose(document):
        for named in NAMED_PATH.findall(line):
            candidate = named.rstrip(".")
            # A glob or a placeholder (`Features/X/`, `projects/<id>`) names a pattern, not a path.
            if any(mark in candidate for mark in "*<>{}") or re.search(r"/X\b|XFeature|/N\b", candidate):
                continue
            if not (ROOT / candidate).exists():
                missing.append(f"{document}:{number}: {candidate}")
    assert not missing, "\n".join(missing)
