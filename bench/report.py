"""Aggregate bench rows into tables, a markdown report, a chart, and the README section."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

METRICS = ("converged", "first_tool_match", "hatch_avoided", "args_valid", "args_match", "abstention_correct")
README = Path(__file__).resolve().parent.parent / "README.md"


def aggregate(rows: list[dict[str, Any]], by: tuple[str, ...]) -> list[dict[str, Any]]:
    """Mean of each metric (over the rows where it applies), steps, seconds and tokens, per group."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[tuple(row[k] for k in by)].append(row)
    out = []
    for key, members in groups.items():
        entry: dict[str, Any] = dict(zip(by, key))
        entry["n"] = len(members)
        for metric in (*METRICS, "steps", "seconds", "tokens"):
            values = [float(r[metric]) for r in members if r.get(metric) is not None]
            entry[metric] = round(sum(values) / len(values), 3) if values else None
        out.append(entry)
    return out


def _cell(value: Any, percent: bool) -> str:
    if value is None:
        return "-"
    return f"{value * 100:.0f}%" if percent else f"{value:g}"


def table(entries: list[dict[str, Any]], keys: tuple[str, ...]) -> str:
    columns = [*keys, "n", *METRICS, "steps", "seconds", "tokens"]
    lines = ["| " + " | ".join(c.replace("_", " ") for c in columns) + " |", "|" + "---|" * len(columns)]
    for entry in entries:
        cells = [str(entry[k]) for k in keys] + [str(entry["n"])]
        cells += [_cell(entry[m], True) for m in METRICS] + [_cell(entry[m], False) for m in ("steps", "seconds", "tokens")]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(result: dict[str, Any]) -> str:
    """The whole report."""
    meta = result["meta"]
    parts = [f"Run `{meta['label']}`: model {meta['model']}, {meta['trials']} trial(s), temperature "
             f"{meta['temperature']}, at most {meta['max_steps']} steps; {meta['cases']} cases "
             f"({meta['seconds']:.0f} s in all).", "",
             "#### Planner, by configuration", "", table(result["planner"]["by_config"], ("config",)), "",
             "#### Planner, by configuration and query set", "",
             table(result["planner"]["by_config_and_set"], ("config", "complexity")), ""]
    parts += ["#### Compile time (ms per compile)", "", "| tools | rules | ours cold | ours cached | "
              "llama.cpp converter |", "|---|---|---|---|---|"]
    parts += [f"| {r['tools']} | {r['rules']} | {r['ours cold']} | {r['ours cached']} | {r['llama.cpp converter']} |"
              for r in result["compile"]]
    parts += ["", "#### Decoding overhead (same request, same model, same run)", "",
              "| backend | constraint | tokens | ms per token | ratio to unconstrained |", "|---|---|---|---|---|"]
    for r in result["decoding"]:
        base = next((b["ms_per_token"] for b in result["decoding"]
                     if b["backend"] == r["backend"] and b["constraint"] == "unconstrained"), None)
        ratio = f"{r['ms_per_token'] / base:.2f}" if base and r["ms_per_token"] else "-"
        parts.append(f"| {r['backend']} | {r['constraint']} | {r['tokens']} | {r['ms_per_token']} | {ratio} |")
    if result.get("compare"):
        parts += ["", f"#### Against `{result['compare']['label']}`", "", "| config | metric | before | now |",
                  "|---|---|---|---|"]
        parts += [f"| {c['config']} | {c['metric']} | {_cell(c['before'], True)} | {_cell(c['now'], True)} |"
                  for c in result["compare"]["rows"]]
    return "\n".join(parts) + "\n"


def compare(now: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """Per configuration and metric: an earlier run's aggregate beside this one's."""
    old = {e["config"]: e for e in before["planner"]["by_config"]}
    rows = [{"config": e["config"], "metric": m, "before": old[e["config"]][m], "now": e[m]}
            for e in now["planner"]["by_config"] if e["config"] in old for m in METRICS
            if e[m] is not None or old[e["config"]][m] is not None]
    return {"label": before["meta"]["label"], "rows": rows}


def chart(result: dict[str, Any], path: Path) -> None:
    """Bars per configuration: converged, first-tool match, arguments valid."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    entries = result["planner"]["by_config"]
    metrics = ("converged", "first_tool_match", "args_valid", "args_match")
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / len(metrics)
    for i, metric in enumerate(metrics):
        values = [(e[metric] or 0) * 100 for e in entries]
        ax.bar([x + i * width for x in range(len(entries))], values, width, label=metric.replace("_", " "))
    ax.set_xticks([x + width * (len(metrics) - 1) / 2 for x in range(len(entries))], [e["config"] for e in entries])
    ax.set_ylabel("% of cases")
    ax.set_ylim(0, 100)
    ax.set_title(f"Planner bench: {result['meta']['model']}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def update_readme(text: str, marker: str) -> None:
    """Replace the README's text between ``<!-- marker -->`` and ``<!-- /marker -->``."""
    content = README.read_text(encoding="utf-8")
    start, end = f"<!-- {marker} -->", f"<!-- /{marker} -->"
    if start in content and end in content:
        head, rest = content.split(start, 1)
        README.write_text(head + start + "\n" + text + rest[rest.index(end):], encoding="utf-8")
