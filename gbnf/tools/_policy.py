"""The pool filter's policy: each provider's query markers (a tool's own settings live in its manifest)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from gbnf.errors import ManifestError


@dataclass(frozen=True)
class Policy:
    """Filter settings: each provider's query markers (tool settings live in the manifests)."""

    providers: dict[str, tuple[str, ...]] = field(default_factory=dict)


def load_policy(path: str | Path | None = None) -> Policy:
    """Read a policy TOML file; the packaged ``policy.toml`` when ``path`` is None."""
    where = str(path) if path else "gbnf/tools/policy.toml"
    try:
        text = Path(path).read_text(encoding="utf-8") if path else resources.files("gbnf.tools").joinpath(
            "policy.toml").read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ManifestError(where, "", f"cannot read the policy: {exc}") from None
    providers = data.get("providers", {})
    if not isinstance(providers, dict):
        raise ManifestError(where, "providers", "must be a table of provider = [markers]")
    for name, markers in providers.items():
        if not isinstance(markers, list) or not all(isinstance(m, str) and m.strip() for m in markers):
            raise ManifestError(where, f"providers.{name}", "must be a list of non-empty strings")
    unknown = set(data) - {"providers"}
    if unknown:
        raise ManifestError(where, sorted(unknown)[0], "unknown key (expected: providers)")
    return Policy({name: tuple(markers) for name, markers in providers.items()})
