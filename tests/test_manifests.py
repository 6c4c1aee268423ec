"""Manifest loading: the shipped folder loads, and every kind of broken manifest is named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gbnf import ManifestError, load_manifests
from tests.conftest import MANIFESTS

SEED_TOOLS = {"get_inputs", "send_messages", "get_now", "find_files", "request_new_executor",
              "request_location_from_user", "undo_last_turn", "final_answer"}


def test_shipped_manifests_load(tools):
    names = {t.name for t in tools}
    assert len(tools) >= 12
    assert SEED_TOOLS <= names
    assert any(n.endswith("_google_workspace") for n in names)
    kind = next(t for t in tools if t.name == "get_inputs").parameters
    schema_kind = kind["properties"]["dialog"]["items"]["properties"]["schema"]["properties"]["kind"]
    assert len(schema_kind["enum"]) == 10
    assert {t.kind for t in tools} == {"canonical", "escape_hatch"}


def test_parameters_from_json_file_beside_the_manifest(tmp_path):
    (tmp_path / "args.json").write_text('{"type": "object", "properties": {"q": {"type": "string"}}}')
    (tmp_path / "search.toml").write_text('name = "search"\ndescription = "d"\nparameters = "args.json"\n')
    [tool] = load_manifests(tmp_path)
    assert tool.parameters["properties"]["q"] == {"type": "string"}


BROKEN = {
    "bad TOML": ('name = "x\ndescription = "d"\n', ""),
    "missing name": ('description = "d"\n', "name"),
    "name not a string": ('name = 3\ndescription = "d"\n', "name"),
    "name with a space": ('name = "get now"\ndescription = "d"\n', "name"),
    "name with a quote": ('name = "get\\"now"\ndescription = "d"\n', "name"),
    "missing description": ('name = "x"\n', "description"),
    "unknown kind": ('name = "x"\ndescription = "d"\nkind = "hatch"\n', "kind"),
    "unknown key": ('name = "x"\ndescription = "d"\nparams = {}\n', "params"),
    "invalid schema": ('name = "x"\ndescription = "d"\n[parameters]\ntype = "object"\n'
                       '[parameters.properties.n]\ntype = "integer"\nminimum = "one"\n',
                       "parameters.properties.n.minimum"),
    "unknown type": ('name = "x"\ndescription = "d"\n[parameters]\ntype = "object"\n'
                     '[parameters.properties.n]\ntype = "int"\n', "parameters.properties.n.type"),
    "arguments not an object": ('name = "x"\ndescription = "d"\n[parameters]\ntype = "string"\n',
                                "parameters.type"),
    "dangling ref": ('name = "x"\ndescription = "d"\n[parameters]\ntype = "object"\n'
                     '[parameters.properties.n]\n"$ref" = "#/$defs/nothing"\n', "parameters.n.$ref"),
    "missing json file": ('name = "x"\ndescription = "d"\nparameters = "nope.json"\n', "parameters"),
    "markers not strings": ('name = "x"\ndescription = "d"\n[filter]\nmarkers = [1]\n', "filter.markers"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_manifest_names_file_and_key(tmp_path, case):
    text, key = BROKEN[case]
    file = tmp_path / "tool.toml"
    file.write_text(text)
    with pytest.raises(ManifestError) as caught:
        load_manifests(tmp_path)
    assert caught.value.file == str(file)
    assert caught.value.key == key
    assert str(caught.value).startswith(f"{file}: {key}" if key else str(file))


def test_duplicate_name_names_both_files(tmp_path):
    for stem in ("a", "b"):
        (tmp_path / f"{stem}.toml").write_text('name = "same"\ndescription = "d"\n')
    with pytest.raises(ManifestError, match=r"b\.toml: name: duplicate tool name 'same' \(also in .*a\.toml\)"):
        load_manifests(tmp_path)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gbnf", *args], capture_output=True, text=True, timeout=120)


def test_cli_check_ok():
    done = _cli("check", str(MANIFESTS))
    assert done.returncode == 0, done.stderr
    assert "manifests OK" in done.stdout


def test_cli_check_broken_prints_one_line_and_exits_2(tmp_path):
    (tmp_path / "x.toml").write_text('name = "x"\n')
    done = _cli("check", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip() == f"gbnf: {tmp_path / 'x.toml'}: description: missing"
    assert "Traceback" not in done.stderr


def test_cli_compile_writes_a_file(tmp_path, engine):
    out = tmp_path / "pool.gbnf"
    done = _cli("compile", str(MANIFESTS), "-o", str(out))
    assert done.returncode == 0, done.stderr
    engine.check(out.read_text())


@pytest.mark.parametrize("where", ["missing/pool.gbnf", "."])
def test_cli_compile_to_an_unwritable_place_is_one_line(tmp_path, where):
    done = _cli("compile", str(MANIFESTS), "-o", str(tmp_path / where))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"gbnf: {tmp_path / where}") and len(done.stderr.strip().splitlines()) == 1


def test_missing_folder(tmp_path):
    with pytest.raises(ManifestError, match="no such file or folder"):
        load_manifests(Path(tmp_path / "nowhere"))
