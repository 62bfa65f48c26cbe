"""The runtime as a site gets it (site_output/js_bundle.py, assets.py): one file per entry, which
parses, answers exactly as js/src does, loads nothing else of the engine, and is the same bytes
on every build; forms the bundler does not know are refused, never bundled wrong."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from mkdocs_graphsearch.site_output.assets import ENTRIES, shipped_files
from mkdocs_graphsearch.site_output.js_bundle import BundleError, bundle_entry
from runtime_checks import NODE, assert_answers_as_the_source, assert_modules_parse


@pytest.fixture(scope="module")
def shipped_runtime(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runtime")
    for name, text in shipped_files().items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    return folder


def test_one_file_per_entry_and_the_css():
    files = shipped_files()
    assert sorted(files) == sorted([*ENTRIES, "ui/ui.css"])
    assert files == shipped_files()  # same sources, same bytes
    for entry in ENTRIES:
        # no static import is left; the only dynamic one is the UI's in-page fallback
        assert not re.search(r"^import\b(?!\()", files[entry], re.M), entry
    assert re.findall(r'import\("([^"]+)"\)', files["ui/ui.js"]) == ["../engine/worker.js"]
    assert re.findall(r'import\("([^"]+)"\)', files["engine/worker.js"]) == []


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_shipped_files_parse(shipped_runtime):
    assert_modules_parse(shipped_runtime)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("mode", ["keyword", "hybrid"])
def test_shipped_worker_answers_as_the_source(shipped_runtime, mode):
    assert_answers_as_the_source(shipped_runtime, mode)


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def _bundle(root: Path, entry: str) -> str:
    return bundle_entry(root, entry, lambda path: path.read_text(encoding="utf-8"))


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_imports_renamed_loaded_later_and_side_effects_in_order(tmp_path):
    root = _tree(tmp_path, {
        "e/main.js": 'import { twice as double, log } from "./lib/util.js";\nimport "./side.js";\n'
                     'export async function run() {\nconst { late } = await import("./late.js");\n'
                     "log(double(late));\nreturn globalThis.seen.join(\",\");\n}\n",
        "e/lib/util.js": "export const log = (x) => globalThis.seen.push(String(x));\n"
                         "export function twice(x) {\nreturn 2 * x;\n}\n",
        "e/side.js": 'import { log } from "./lib/util.js";\nlog("side");\n',
        "e/late.js": "export const late = 21;\n",
    })
    (root / "out.mjs").write_text("globalThis.seen = [];\n" + _bundle(root, "e/main.js"), encoding="utf-8")
    run = subprocess.run([NODE, "--input-type=module", "-e", f"import {{ run }} from {str(root / 'out.mjs')!r};"
                          " console.log(await run());"], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "side,42"


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"e/a.js": 'import { b } from "./b.js";\n', "e/b.js": 'import { a } from "./a.js";\nexport const b = 1;\n'},
         "import cycle"),
        ({"e/a.js": 'import { b } from "./b.js";\n', "e/b.js": "const b = 1;\nexport { b };\n"}, "an export"),
        ({"e/a.js": 'import { b } from "./b.js";\n', "e/b.js": "export default 1;\n"}, "an export"),
        ({"e/a.js": 'import * as b from "./b.js";\n', "e/b.js": "export const b = 1;\n"}, "an import"),
        ({"e/a.js": 'import { b } from "./missing.js";\n'}, "does not exist"),
        ({"e/a.js": 'import { b } from "./sub/b.js";\n', "e/sub/b.js": "export const b = import.meta.url;\n"},
         "import.meta"),
        ({"e/a.js": 'import { b } from "./sub/b.js";\n',
          "e/sub/b.js": 'export const b = () => import("../../other/x.js");\n'}, "cannot bundle"),
    ],
)
def test_unknown_forms_are_refused(tmp_path, files, message):
    root = _tree(tmp_path, files)
    with pytest.raises(BundleError, match=message):
        _bundle(root, "e/a.js")
