"""The deployment files under ``server/`` checked by the tools that read them: the Compose
Specification's schema (the one ``check-jsonschema`` vendors), Kubernetes' own schemas
(``kubernetes-validate``, strict), and gbnf's own command line for every gbnf command in them.
No cluster or container runs here."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import yaml
from check_jsonschema.builtin_schemas import get_builtin_schema

from gbnf.cli import command_line

SERVER = Path(__file__).resolve().parent.parent / "server"
COMPOSE = sorted(SERVER.glob("compose*.yaml"))
KUBERNETES = sorted((SERVER / "k8s").glob("*.yaml"))
K8S_VERSION = "1.37.0"


def compose_errors(document: Any) -> list[str]:
    schema = get_builtin_schema("vendor.compose-spec")
    validator = jsonschema.validators.validator_for(schema)(schema)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def kubernetes_errors(resources: list[Any]) -> list[str]:
    errors = []
    for resource in resources:
        try:
            kubernetes_validate.validate(resource, K8S_VERSION, strict=True)
        except kubernetes_validate.ValidationError as exc:
            errors.append(f"{resource.get('kind')}/{resource['metadata'].get('name')}: {exc.message}")
    return errors


def gbnf_commands() -> list[tuple[str, list[str]]]:
    """Every command list in the deployment files that runs ``gbnf``."""
    found = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("command", "args") and isinstance(value, list) and value and value[0] == "gbnf":
                    found.append((where, value))
                walk(value, where)
        elif isinstance(node, list):
            for item in node:
                walk(item, where)

    for path in [*COMPOSE, *KUBERNETES]:
        for document in yaml.safe_load_all(path.read_text()):
            walk(document, path.name)
    return found


def test_there_are_deployments_for_llama_servers_and_for_vllm():
    assert {p.name for p in COMPOSE} >= {"compose.yaml", "compose.vllm.yaml"}
    assert {p.name for p in KUBERNETES} >= {"gbnf.yaml", "vllm.yaml", "llama.yaml"}


@pytest.mark.parametrize("path", COMPOSE, ids=lambda p: p.name)
def test_the_compose_files_follow_the_compose_specification(path):
    document = yaml.safe_load(path.read_text())
    assert compose_errors(document) == []
    broken = copy.deepcopy(document)
    broken["services"]["gbnf"]["replica"] = 2  # a misspelt key: the check must see it
    assert compose_errors(broken)


@pytest.mark.parametrize("path", KUBERNETES, ids=lambda p: p.name)
def test_the_kubernetes_manifests_follow_kubernetes_schemas(path):
    resources = list(yaml.safe_load_all(path.read_text()))
    assert resources and kubernetes_errors(resources) == []
    broken = copy.deepcopy(resources)
    broken[0]["spec"]["replica"] = 2
    assert kubernetes_errors(broken)


def test_every_gbnf_command_in_them_is_one_gbnf_takes():
    commands = gbnf_commands()
    assert len(commands) >= 6
    for where, command in commands:
        args = command_line().parse_args(command[1:])  # exits (SystemExit) on an unknown flag
        assert callable(args.run), where
    serves = [command for _, command in commands if command[1] == "serve"]
    assert any("vllm" in command for command in serves) and any(c.count("--server") >= 2 for c in serves)
