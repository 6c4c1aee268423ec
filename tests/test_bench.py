"""The bench's quick mode runs end to end and writes a report of the right shape (no timings
are asserted: those are measurements, not tests)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO


@pytest.mark.timeout(900)
def test_quick_bench_writes_its_report(tmp_path):
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--out", str(tmp_path), "--label", "t"],
                          capture_output=True, text=True, cwd=REPO, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads((tmp_path / "t.json").read_text())
    assert set(result) == {"meta", "planner", "compile", "decoding"}
    configs = {e["config"] for e in result["planner"]["by_config"]}
    assert configs == {"baseline", "grammar", "grammar+filter", "plaintext"}
    sets = {e["complexity"] for e in result["planner"]["by_config_and_set"]}
    assert {"simple", "irrelevance", "parallel", "multiple"} <= sets
    row = result["planner"]["rows"][0]
    assert {"case", "config", "converged", "first_tool", "steps", "seconds", "tokens"} <= set(row)
    assert [r["tools"] for r in result["compile"]] == [8, 100]
    assert {r["constraint"] for r in result["decoding"]} >= {"unconstrained", "ours, sample first",
                                                             "ours, full masking"}
    assert (tmp_path / "t.md").read_text().startswith("Run `t`")
    assert (tmp_path / "t.png").stat().st_size > 1000
