"""Every snippet of the SDK pane, drawn with sample values at 80 and 120 columns exactly as the pane
draws its rows, parses in its language's own grammar: tree-sitter's Swift, Kotlin, JavaScript and C++
grammars for all of them, and also the Swift compiler's parser (`swiftc -parse`) and Node's
(`node --check`). The Swift test SnippetExportTests writes the rows; a snippet is a fragment of an
app, so Swift, Kotlin and C++ statements are parsed inside a function (Swift's imports above it), and
JavaScript as an ES module, where `import` and top-level `await` belong."""
import os
import pathlib
import shutil
import subprocess

import pytest
import tree_sitter
import tree_sitter_cpp
import tree_sitter_javascript
import tree_sitter_kotlin
import tree_sitter_swift

ROOT = pathlib.Path(__file__).resolve().parents[2]

GRAMMARS = {
    ".swift": ("Swift", tree_sitter_swift),
    ".kt": ("Kotlin", tree_sitter_kotlin),
    ".mjs": ("JavaScript", tree_sitter_javascript),
    ".cpp": ("C++", tree_sitter_cpp),
}


@pytest.fixture(scope="session")
def snippets(tmp_path_factory):
    out = tmp_path_factory.mktemp("snippets")
    env = dict(os.environ, AUTHDECK_SNIPPETS_DIR=str(out))
    run = subprocess.run(["swift", "test", "--skip-build", "--filter", "SnippetExportTests"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    files = sorted(path for path in out.rglob("*") if path.suffix in GRAMMARS)
    # 47 kinds and 3 long-valued steps, four languages, two widths.
    assert len(files) >= 50 * 4 * 2, len(files)
    return files


def program(path):
    """The file as a compilation unit, and how many lines were put above its first row."""
    rows = path.read_text().split("\n")
    if path.suffix == ".mjs":
        return "\n".join(rows), 0
    imports = []
    if path.suffix == ".swift":
        while rows and (rows[0].startswith("import ") or rows[0] == ""):
            imports.append(rows.pop(0))
    opening = {".swift": "func snippet() async throws {", ".kt": "fun snippet() {", ".cpp": "void snippet() {"}[path.suffix]
    # The hoisted imports keep their own line numbers; the opening line shifts the rest by one.
    return "\n".join(imports + [opening] + rows + ["}"]), 1


def where(path, row, offset):
    """flow, step, language, width and the file's line for a row of the parsed program."""
    flow = path.parent.name
    step, width = path.name.split(".")[0], path.name.split(".")[-2]
    language = GRAMMARS[path.suffix][0]
    lines = path.read_text().split("\n")
    imports = 0
    if path.suffix == ".swift":
        while imports < len(lines) and (lines[imports].startswith("import ") or lines[imports] == ""):
            imports += 1
    line = row + 1 if row < imports else row + 1 - offset
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    variant = " (long values)" if ".long." in path.name else ""
    return f"{flow} / {step}{variant} / {language} at {width} columns, line {line}: {text.strip()!r}"


def errors(node):
    if node.type == "ERROR" or node.is_missing:
        yield node
        return
    for child in node.children:
        yield from errors(child)


def test_every_snippet_parses_in_its_languages_tree_sitter_grammar(snippets):
    parsers = {suffix: tree_sitter.Parser(tree_sitter.Language(module.language())) for suffix, (_, module) in GRAMMARS.items()}
    failures = []
    for path in snippets:
        source, offset = program(path)
        tree = parsers[path.suffix].parse(source.encode())
        for node in errors(tree.root_node):
            failures.append(where(path, node.start_point[0], offset))
            break
    assert not failures, "snippets that do not parse:\n" + "\n".join(failures)


def test_every_javascript_snippet_parses_in_node(snippets, tmp_path):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    failures = []
    for path in (p for p in snippets if p.suffix == ".mjs"):
        run = subprocess.run(["node", "--check", str(path)], capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            # Node names the file and line first: "path:LINE".
            line = next((part.split(":")[-1] for part in run.stderr.split("\n") if part.startswith(str(path) + ":")), "?")
            failures.append(where(path, int(line) - 1, 0) if line.isdigit() else f"{path}: {run.stderr.strip()[:300]}")
    assert not failures, "snippets Node cannot parse:\n" + "\n".join(failures)


def test_every_swift_snippet_parses_in_the_swift_compiler(snippets, tmp_path):
    swiftc = shutil.which("swiftc")
    if swiftc is None:
        pytest.skip("swiftc is not installed")
    failures = []
    swift = [p for p in snippets if p.suffix == ".swift"]
    units = []
    for index, path in enumerate(swift):
        source, offset = program(path)
        unit = tmp_path / f"unit{index}.swift"
        unit.write_text(source + "\n")
        units.append((unit, path, offset))
    for unit, path, offset in units:
        run = subprocess.run([swiftc, "-parse", str(unit)], capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            marker = str(unit) + ":"
            line = next((part[len(marker):].split(":")[0] for part in run.stderr.split("\n")
                         if part.startswith(marker) and ": error:" in part), "?")
            failures.append(where(path, int(line) - 1, offset) if line.isdigit() else f"{path}: {run.stderr.strip()[:300]}")
    assert not failures, "snippets swiftc -parse rejects:\n" + "\n".join(failures)


def test_a_broken_snippet_is_reported_with_its_flow_language_and_line(tmp_path):
    """The check can fail: a comment cut by a soft wrap, as the pane once drew it, does not parse."""
    flow = tmp_path / "anonymous"
    flow.mkdir()
    broken = flow / "reauthenticateWithPassword.80.kt"
    broken.write_text("// Sensitive changes need a recent sign-in; password: from the\n"
                      "    form, never logged\n"
                      "val credential = EmailAuthProvider.getCredential(\"ada@example.com\", password)\n")
    source, offset = program(broken)
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_kotlin.language()))
    found = [where(broken, node.start_point[0], offset) for node in errors(parser.parse(source.encode()).root_node)]
    assert found, source
    assert found[0].startswith("anonymous / reauthenticateWithPassword / Kotlin at 80 columns, line 2"), found
