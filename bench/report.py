"""Aggregate bench rows into tables, a markdown report, a chart, and the docs' measured sections."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

TASK_METRICS = ("success", "own_success", "first_tool_match", "args_valid", "repeats_failure",
                "writes_failure_again")
BFCL_METRICS = ("first_tool_match", "args_valid", "args_match", "abstention_correct")
ENDPOINT_METRICS = ("called", "args_valid", "ast_match", "error")
FINISHERS = ("model", "loop", "salvage", "none")
COMPILE_CASES = ("ours, new schemas", "ours, new names", "ours, known tools", "ours cached")
DOCS = Path(__file__).resolve().parent.parent / "docs"


def aggregate(rows: list[dict[str, Any]], by: tuple[str, ...], metrics: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per group: the mean of each metric (over the rows where it applies), the share of plans
    each finisher ended, and mean steps and seconds."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[tuple(row[k] for k in by)].append(row)
    out = []
    for key, members in groups.items():
        entry: dict[str, Any] = {**dict(zip(by, key)), "n": len(members)}
        for metric in (*metrics, "steps", "seconds"):
            values = [float(r[metric]) for r in members if r.get(metric) is not None]
            entry[metric] = round(sum(values) / len(values), 3) if values else None
        if all("finished_by" in r for r in members):
            for who in FINISHERS:
                entry[f"by {who}"] = round(sum(r["finished_by"] == who for r in members) / len(members), 3)
        out.append(entry)
    return out


def _cell(value: Any, percent: bool) -> str:
    if value is None:
        return "-"
    return f"{value * 100:.0f}%" if percent else f"{value:g}"


def table(entries: list[dict[str, Any]], keys: tuple[str, ...], metrics: tuple[str, ...]) -> str:
    """A markdown table: the keys, n, the metrics and finishers (when known) as percentages,
    steps (when known) and seconds."""
    shares = (*metrics, *(f"by {w}" for w in FINISHERS if entries and f"by {w}" in entries[0]))
    plain = tuple(m for m in ("steps", "seconds") if any(e[m] is not None for e in entries))
    columns = [*keys, "n", *shares, *plain]
    lines = ["| " + " | ".join(c.replace("_", " ") for c in columns) + " |", "|" + "---|" * len(columns)]
    for entry in entries:
        cells = [str(entry[k]) for k in keys] + [str(entry["n"])]
        cells += [_cell(entry[m], True) for m in shares] + [_cell(entry[m], False) for m in plain]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(result: dict[str, Any]) -> str:
    """The whole report."""
    meta = result["meta"]
    tasks, bfcl = result["tasks"], result["bfcl"]
    parts = [f"Run `{meta['label']}`: model {meta['model']}, {meta['trials']} trial(s), temperature "
             f"{meta['temperature']}, at most {meta['max_steps']} steps; {meta['tasks']} tasks and "
             f"{meta['bfcl_cases']} BFCL entries ({meta['seconds']:.0f} s in all).", "",
             "#### Task success, by configuration and task set", "",
             table(tasks["by_config"], ("config", "set"), TASK_METRICS), "",
             "#### Task success on the bench set, by configuration and kind of task", "",
             table(tasks["by_config_and_kind"], ("config", "kind"), TASK_METRICS), "",
             "#### BFCL, by configuration and set", "",
             table(bfcl["by_config_and_set"], ("config", "set"), BFCL_METRICS), ""]
    if result.get("endpoint"):
        parts += ["#### BFCL through `gbnf serve` and through llama-server's own tool calling "
                  "(same model, same OpenAI requests)", "",
                  table(result["endpoint"]["by_target"], ("target", "tool_choice", "set"), ENDPOINT_METRICS), ""]
    parts += ["#### Compile time (ms per compile; the median of interleaved rounds)", "",
              "| tools | rules | ours, new schemas | ours, new names | ours, known tools | ours cached | "
              "llama.cpp converter |", "|---|---|---|---|---|---|---|"]
    parts += [f"| {r['tools']} | {r['rules']} | " + " | ".join(_with_ratio(r, label) for label in COMPILE_CASES)
              + f" | {r['llama.cpp converter']} |" for r in result["compile"]]
    parts += ["", "#### Decoding overhead (same request, same model, same run; the median of interleaved rounds)", "",
              "| backend | constraint | tokens | ms per token | ratio to unconstrained | peak memory (MB) |",
              "|---|---|---|---|---|---|"]
    for r in result["decoding"]:
        base = next((b["ms_per_token"] for b in result["decoding"]
                     if b["backend"] == r["backend"] and b["constraint"] == "unconstrained"), None)
        ratio = f"{r['ms_per_token'] / base:.2f}" if base and r["ms_per_token"] else "-"
        parts.append(f"| {r['backend']} | {r['constraint']} | {r['tokens']} | {r['ms_per_token']} | {ratio} | "
                     f"{r.get('peak_rss_mb') or '-'} |")
    if result.get("calls"):
        parts += ["", "#### The planner's calls, replayed with their grammar and without (in-process, the same "
                  "prompts and sampling, interleaved request by request)", "",
                  "| config | calls | tokens per call | ms per token | unconstrained ms per token | ratio | "
                  "seconds per call |", "|---|---|---|---|---|---|---|"]
        parts += [f"| {r['config']} | {r['calls']} | {r['tokens_per_call']} | {r['ms_per_token']} | "
                  f"{r['free_ms_per_token']} | {r['ratio']} | {r['seconds_per_call']} |" for r in result["calls"]]
    if result.get("masks"):
        parts += ["", "#### Mask time by engine (the same grammar in each engine's dialect, the same tokens, "
                  "the model's vocabulary)", "",
                  "| pool | engine | tokens | compile ms | ms per token | ratio to llama.cpp | note |",
                  "|---|---|---|---|---|---|---|"]
        for r in result["masks"]:
            base = next((b["ms_per_token"] for b in result["masks"]
                         if b["pool"] == r["pool"] and b["engine"] == "llama.cpp"), None)
            ratio = f"{r['ms_per_token'] / base:.3f}" if base and r["ms_per_token"] is not None else "-"
            parts.append(f"| {r['pool']} | {r['engine']} | {r['tokens']} | {_cell(r['compile_ms'], False)} | "
                         f"{_cell(r['ms_per_token'], False)} | {ratio} | {r['note']} |")
    if result.get("compare"):
        parts += ["", f"#### Task success against `{result['compare']['label']}`", "",
                  "| config | set | metric | before | now |", "|---|---|---|---|---|"]
        parts += [f"| {c['config']} | {c['set']} | {c['metric']} | {_cell(c['before'], True)} | {_cell(c['now'], True)} |"
                  for c in result["compare"]["rows"]]
    return "\n".join(parts) + "\n"


def rows_table(rows: list[dict[str, Any]]) -> str:
    """Rows of the same keys as a markdown table, one column per key."""
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(row[key]) for key in head) + " |" for row in rows]
    return "\n".join(lines)


def _with_ratio(row: dict[str, Any], label: str) -> str:
    """A compile time in ms, with its ratio to the converter's when the run recorded one."""
    ratio = row.get(f"{label} / converter")
    return f"{row[label]} ({ratio}x)" if ratio is not None else str(row[label])


def compare(now: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """Per configuration and task metric: an earlier run's aggregate beside this one's."""
    old = {(e["config"], e.get("set", "bench")): e for e in before["tasks"]["by_config"]}
    rows = [{"config": e["config"], "set": e["set"], "metric": m, "before": old[e["config"], e["set"]].get(m),
             "now": e[m]} for e in now["tasks"]["by_config"] if (e["config"], e["set"]) in old for m in TASK_METRICS]
    return {"label": before["meta"]["label"], "rows": rows}


def chart(result: dict[str, Any], path: Path) -> None:
    """Bars per configuration: task success, first-tool match, the model's own final answer,
    arguments valid."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    entries = result["tasks"]["by_config"]
    names = [e["config"] if e["set"] == "bench" else f"{e['config']}\n({e['set']})" for e in entries]
    metrics = ("success", "first_tool_match", "by model", "args_valid")
    labels = ("task success", "first-tool match", "finished by the model", "arguments valid")
    fig, ax = plt.subplots(figsize=(max(9.0, 0.9 * len(entries)), 4))
    width = 0.8 / len(metrics)
    for i, (metric, label) in enumerate(zip(metrics, labels)):
        values = [(e[metric] or 0) * 100 for e in entries]
        ax.bar([x + i * width for x in range(len(entries))], values, width, label=label)
    ax.set_xticks([x + width * (len(metrics) - 1) / 2 for x in range(len(entries))], names, fontsize=7)
    ax.set_ylabel("% of tasks")
    ax.set_ylim(0, 100)
    ax.set_title(f"Task success: {result['meta']['model']}, {result['meta']['tasks']} tasks (bench and held-out sets)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def update_docs(text: str, marker: str, page: str) -> None:
    """Replace the text of ``docs/page`` between ``<!-- marker -->`` and ``<!-- /marker -->``."""
    path = DOCS / page
    content = path.read_text(encoding="utf-8")
    start, end = f"<!-- {marker} -->", f"<!-- /{marker} -->"
    if start in content and end in content:
        head, rest = content.split(start, 1)
        path.write_text(head + start + "\n" + text + rest[rest.index(end):], encoding="utf-8")
