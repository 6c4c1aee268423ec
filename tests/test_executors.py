"""The built-in executors: read-only and bounded."""

from __future__ import annotations

import datetime
import os

import pytest

from gbnf.tools import MAX_BYTES, RESULT_CAP, find_files, get_now, read_file


@pytest.fixture()
def tree(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    for i in range(3):
        (tmp_path / "docs" / f"note{i}.md").write_text(f"grammar {i}")
    (tmp_path / "report.pdf").write_bytes(b"%PDF")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_find_files_searches_the_current_folder_by_default(tree):
    assert sorted(find_files("*.md")) == [os.path.join("docs", f"note{i}.md") for i in range(3)]
    assert find_files("pdf") == ["report.pdf"]  # a bare word is part of a name
    assert find_files("*.md", contains="grammar 1") == [os.path.join("docs", "note1.md")]
    assert find_files("*.md", max_results=2) and len(find_files("*.md", max_results=2)) == 2


def test_find_files_takes_a_folder_in_the_pattern_and_refuses_a_missing_one(tree):
    assert len(find_files(str(tree / "docs" / "*.md"))) == 3
    with pytest.raises(FileNotFoundError):
        find_files("*.md", folder=str(tree / "nowhere"))


def test_find_files_is_capped(tmp_path):
    for i in range(RESULT_CAP + 5):
        (tmp_path / f"f{i}.txt").write_text("")
    assert len(find_files("*.txt", folder=str(tmp_path), max_results=10_000)) == RESULT_CAP


def test_read_file_is_bounded(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("x" * (MAX_BYTES * 3))
    assert len(read_file(str(big), max_bytes=10**9)) == MAX_BYTES
    assert read_file(str(big), max_bytes=5) == "xxxxx"


def test_get_now_in_a_zone():
    assert get_now("Asia/Tokyo").endswith("+09:00")


@pytest.mark.parametrize("zone", ["US/Eastern_US/Pacific_Northwest", "../../etc/passwd", "UTC+08"])
def test_get_now_in_an_unknown_zone_is_the_local_time_with_a_note(zone):
    text = get_now(zone)
    assert text.startswith(str(datetime.date.today().year)) and f"there is no time zone {zone!r}" in text
