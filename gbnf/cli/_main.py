"""The ``gbnf`` command: check manifests, compile grammars, plan, run llama-server."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Iterator
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from gbnf.backends import UPSTREAMS, crash_line
from gbnf.cli._supervise import supervised
from gbnf.compiler import DIALECTS, Layout, compile_pool, json_text
from gbnf.endpoint import Limits
from gbnf.errors import ExecutorFailed, GbnfError
from gbnf.plan import Event, PlanOptions, PlanResult
from gbnf.shape import PROFILES, SMALL_PARAMETERS, Shaping
from gbnf.tools import Tool, load_manifests

if TYPE_CHECKING:
    from gbnf.backends import Backend
    from gbnf.tools import McpTools

DEFAULTS = PlanOptions()


def run() -> int:
    """The ``gbnf`` command: :func:`main` in a child process, so that a crash in native code
    (llama.cpp) prints one line naming it instead of dying silently."""
    args = sys.argv[1:]
    command = next((arg for arg in args if not arg.startswith("-")), "")
    return supervised(lambda: main(args), f"gbnf {command}".strip())


def main(argv: list[str] | None = None) -> int:
    """Run the command line in this process; errors print one line and exit 2, never a traceback."""
    parser = command_line()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except GbnfError as exc:
        print(f"gbnf: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stdout = open(os.devnull, "w")  # the reader went away (| head): not an error
        return 0
    except OSError as exc:  # an unwritable -o, an unreadable file, a full disk
        print(f"gbnf: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return 2


def command_line() -> argparse.ArgumentParser:
    """The parser of the ``gbnf`` command line (every command and its options)."""
    parser = argparse.ArgumentParser(prog="gbnf", description=__doc__)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="validate a folder of manifests")
    check.add_argument("path", type=Path)
    check.set_defaults(run=_check)

    comp = commands.add_parser("compile", help="print or write the pool grammar of a manifest folder")
    comp.add_argument("path", type=Path)
    comp.add_argument("-o", "--output", type=Path, help="write the grammar to this file")
    comp.add_argument("--parallel", type=int, default=1, metavar="N", help="a step may carry 1..N calls")
    comp.add_argument("--layout", choices=get_args(Layout), default="free",
                      help="whitespace: free (where JSON allows it), indented (json.dumps(indent=2)), line (one "
                           "line, a space after each comma and colon), compact (none)")
    comp.add_argument("--dialect", choices=DIALECTS, default="gbnf",
                      help="the engine's grammar syntax: gbnf (llama.cpp), llguidance (its Lark-like syntax; "
                           "vLLM/SGLang guidance backend), xgrammar (its EBNF; vLLM/SGLang xgrammar backend)")
    comp.set_defaults(run=_compile)

    imp = commands.add_parser("import", help="write TOML manifests from OpenAI, MCP or BFCL tool definitions")
    imp.add_argument("--from", dest="source", required=True, choices=["openai", "mcp", "bfcl"])
    imp.add_argument("file", type=Path)
    imp.add_argument("-o", "--output", type=Path, required=True, help="folder for the manifests")
    imp.add_argument("--force", action="store_true", help="overwrite manifests that exist already")
    imp.set_defaults(run=_import)

    lint = commands.add_parser("lint", help="check a GBNF file (or manifests, as check does); exit 1 when something "
                                           "is wrong")
    lint.add_argument("file", type=Path)
    lint.set_defaults(run=_lint)

    plan = commands.add_parser("plan", help="run the planner on a query (in-process model by default)")
    plan.add_argument("query")
    plan.add_argument("--manifests", type=Path, default=Path("manifests"), help="manifest folder (./manifests)")
    plan.add_argument("--server", default=os.environ.get("GBNF_SERVER"), metavar="URL",
                      help="use a running llama-server ($GBNF_SERVER) instead of the in-process model")
    _upstream_options(plan)
    plan.add_argument("--model", help="GGUF file or packaged model (smollm2-135m, gemma3-270m) for the "
                      "in-process model ($GBNF_MODEL; default: the embedded SmolLM2-135M)")
    _engine_option(plan)
    _mcp_options(plan)
    plan.add_argument("--policy", type=Path, help="pool-filter policy TOML (default: the packaged one)")
    plan.add_argument("--trace", type=Path, help="write every event as a JSON line to this file")
    plan.add_argument("--max-steps", type=int, default=DEFAULTS.max_steps)
    plan.add_argument("--parallel", type=int, default=DEFAULTS.parallel, metavar="N",
                      help="allow up to N calls per step")
    plan.add_argument("--temperature", type=float, default=DEFAULTS.sampling.temperature)
    plan.add_argument("--seed", type=int, default=DEFAULTS.sampling.seed)
    plan.add_argument("--max-tokens", type=int, default=DEFAULTS.sampling.max_tokens)
    plan.add_argument("--mode", choices=["grammar", "native", "soft"], default=DEFAULTS.mode,
                      help="grammar (default), the server's native tools, or soft parsing without either")
    plan.add_argument("--top-k", type=int, default=DEFAULTS.top_k, metavar="K",
                      help=f"offer the K tools most relevant to the query, plus final_answer "
                           f"(default {DEFAULTS.top_k}; "
                           "0 offers only final_answer)")
    plan.add_argument("--all-tools", action="store_true", help="offer every tool (no relevance ranking)")
    plan.add_argument("--dry-run", action="store_true",
                      help="run only tools that read (read_only executors); print the first calls that would act "
                           "as JSON and stop")
    plan.add_argument("--no-salvage", action="store_true", help="do not answer from tool results when a plan fails")
    plan.add_argument("--no-cite", action="store_true",
                      help="print the model's answer as it is, without the tool results it left out")
    _shaping_options(plan)
    plan.add_argument("-v", "--verbose", action="store_true", help="after the answer, print each step to stderr")
    plan.set_defaults(run=_plan)

    serve = commands.add_parser("serve", help="an OpenAI-compatible endpoint whose tool calls are grammar-safe "
                                "and validated")
    serve.add_argument("--server", action="append", metavar="URL",
                       help="send requests to this llama-server (repeat for several; default: $GBNF_SERVER, "
                            "else the in-process model)")
    _upstream_options(serve)
    serve.add_argument("--model", help="GGUF file or packaged model (smollm2-135m, gemma3-270m) for the "
                       "in-process model ($GBNF_MODEL; default: the embedded SmolLM2-135M)")
    _engine_option(serve)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000, help="0 picks a free port (default 8000)")
    serve.add_argument("--max-retries", type=int, default=2, metavar="N",
                       help="ask again up to N times when a reply fails its schema (default 2)")
    _shaping_options(serve)
    serve.add_argument("--queue", type=int, default=16, metavar="N",
                       help="in-process: requests that may wait for the model before 503 (default 16)")
    serve.add_argument("--timeout", type=float, default=120.0, metavar="S",
                       help="llama-server: seconds to wait for a reply before 504 (default 120)")
    _mcp_options(serve, " for requests that send no tools, with --run-tools")
    serve.add_argument("--run-tools", action="store_true",
                       help="plan each request that sends no tools with the MCP tools given, which runs them for "
                            "any client that reaches the server (off by default)")
    _door_options(serve)
    serve.add_argument("-v", "--verbose", action="store_true", help="log every request")
    serve.set_defaults(run=_serve)

    server = commands.add_parser("server", help="find, build or start llama-server")
    server_commands = server.add_subparsers(required=True, metavar="ACTION")
    build = server_commands.add_parser("build", help="print the llama-server path, building it first if needed")
    cuda = build.add_mutually_exclusive_group()
    cuda.add_argument("--cuda", action="store_true", default=None,
                      help="build with CUDA (default: when the machine has nvcc and an NVIDIA GPU, or $GBNF_CUDA=1)")
    cuda.add_argument("--no-cuda", dest="cuda", action="store_false", help="build for the CPU only")
    engine = build.add_mutually_exclusive_group()
    engine.add_argument("--llguidance", action="store_true", default=None,
                        help="with llguidance as the grammar engine (default on Linux, or $GBNF_LLGUIDANCE=1)")
    engine.add_argument("--no-llguidance", dest="llguidance", action="store_false",
                        help="with llama.cpp's own grammar engine only")
    build.set_defaults(run=_server_build)
    start = server_commands.add_parser("start", help="start llama-server in the foreground until Ctrl-C")
    start.add_argument("--model", help="GGUF file or packaged model name (default: $GBNF_MODEL or the embedded model)")
    start.add_argument("--host", default="127.0.0.1")
    start.add_argument("--port", type=int)
    start.add_argument("--ctx-size", type=int, default=8192, help="context tokens, shared by the slots")
    start.add_argument("--parallel", type=int, default=1, metavar="N",
                       help="requests served at once, each in its own slot (llama-server -np)")
    start.add_argument("--threads", type=int, metavar="N",
                       help="CPU threads (default: every core; with several servers on one machine, give each "
                            "its share: oversubscribed, llama.cpp's spinning threads can stall for minutes)")
    start.add_argument("--n-gpu-layers", type=int, metavar="N",
                       help="layers offloaded to the GPU (-1: all; default: llama-server's own, as many as fit)")
    start.set_defaults(run=_server_start)

    doctor = commands.add_parser("doctor", help="print what a bug report needs (CPU, llama.cpp build, model) and "
                                 "check one decode in-process and one through llama-server; exit 1 if one fails")
    doctor.add_argument("--model", help="GGUF file or packaged model (default: $GBNF_MODEL or the embedded model)")
    doctor.add_argument("--no-server", action="store_true", help="skip llama-server (neither build nor start it)")
    doctor.set_defaults(run=_doctor)
    return parser


def _engine_option(command: argparse.ArgumentParser) -> None:
    command.add_argument("--engine", choices=["llguidance", "llama.cpp"], default="llguidance",
                         help="in-process: what decides the grammar (default llguidance: fast-forward where one "
                              "continuation is possible; llama.cpp: its own grammar, sample first)")
    command.add_argument("--n-gpu-layers", type=int, default=0, metavar="N",
                         help="in-process: layers offloaded to the GPU (-1: all; default 0), with llama-cpp-python "
                              "built with CUDA")


def _door_options(command: argparse.ArgumentParser) -> None:
    """``gbnf serve``'s API keys, request limits and shutdown."""
    door = command.add_argument_group("access and limits (0: no limit)")
    door.add_argument("--api-key", action="append", default=[], metavar="KEY",
                      help="require this key as a bearer token on every route but /health (repeatable; also "
                           "$GBNF_API_KEY and --api-key-file, which keep it out of the process list)")
    door.add_argument("--api-key-file", type=Path, metavar="FILE", help="keys, one per line")
    door.add_argument("--no-api-key", action="store_true",
                      help="serve a --host other than loopback without a key (refused otherwise)")
    for limit in fields(Limits):
        default = limit.default
        door.add_argument(f"--limit-{limit.name.replace('_', '-')}", type=type(default), default=default,
                          metavar="N", help=f"{limit.metadata['help']} ({default:,})")
    door.add_argument("--drain-seconds", type=int, default=30, metavar="S",
                      help="on SIGTERM, stop accepting and give requests in flight S seconds to finish (30)")


def _mcp_options(command: argparse.ArgumentParser, use: str = "") -> None:
    command.add_argument("--mcp", action="append", default=[], metavar="COMMAND",
                         help=f"the tools of an MCP server started as COMMAND (stdio; repeatable){use}")
    command.add_argument("--mcp-url", action="append", default=[], metavar="URL",
                         help="the tools of the MCP server at URL (Streamable HTTP; repeatable)")
    command.add_argument("--mcp-config", type=Path, metavar="FILE",
                         help="the tools of the servers an mcp.json names ({\"mcpServers\": {...}})")
    command.add_argument("--mcp-timeout", type=float, default=30.0, metavar="S",
                         help="seconds an MCP server has to start or answer a call (default 30)")


@contextlib.contextmanager
def _mcp_tools(args: argparse.Namespace) -> Iterator[McpTools]:
    """The MCP servers the options name, started; their warnings and failures printed."""
    from gbnf.tools import McpTools, http_server, read_config, stdio_server

    servers = [*map(stdio_server, args.mcp), *map(http_server, args.mcp_url),
               *(read_config(args.mcp_config) if args.mcp_config else [])]
    with McpTools(servers, timeout=args.mcp_timeout) as mcp:
        for warning in mcp.warnings:
            print(f"gbnf: {warning}", file=sys.stderr)
        if servers and not mcp.tools and not mcp.warnings:
            print("gbnf: the MCP servers list no tools", file=sys.stderr)
        try:
            yield mcp
        finally:
            for failure in dict.fromkeys(mcp.failures):
                print(f"gbnf: {failure}", file=sys.stderr)


def _upstream_options(command: argparse.ArgumentParser) -> None:
    """``--upstream-kind`` and ``--grammar-dialect``: what kind of server ``--server`` is."""
    command.add_argument("--upstream-kind", choices=UPSTREAMS, default="llama-server",
                         help="the server behind --server: llama-server (grammar), vllm (structured_outputs), "
                              "sglang (ebnf)")
    command.add_argument("--grammar-dialect", choices=DIALECTS, default=None,
                         help="the grammar syntax the server's engine reads (default: for llama-server, llguidance "
                              "when it was built with it, else gbnf; xgrammar for vllm and sglang, llguidance for "
                              "their guidance/llguidance backend)")


def _shaping_options(command: argparse.ArgumentParser) -> None:
    """``--profile`` and ``--shaping``: how requests are shaped for the model."""
    command.add_argument("--profile", choices=list(PROFILES), default=None,
                         help="how much the request narrows what the model may write: small (a call or prose decided "
                              "by the request, values copied from it), capable (grammar, validation and retries "
                              "only), off (the tools' grammar as declared); default: small for models of up to "
                              f"{SMALL_PARAMETERS / 1e9:g} billion parameters, capable above")
    command.add_argument("--shaping", action="append", default=[], metavar="FIELD=VALUE",
                         help="change one setting of the profile (repeat for several): "
                              f"{', '.join(f.name for f in fields(Shaping))}; true/false, a number, or none")


def shaping_changes(pairs: list[str]) -> dict[str, Any]:
    """``--shaping FIELD=VALUE`` pairs as :class:`~gbnf.shape.Shaping` fields and values; a
    :class:`GbnfError` names a field or value that is not one."""
    kinds = {f.name: str(f.type) for f in fields(Shaping)}
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        name, text = name.strip().replace("-", "_"), text.strip().lower()
        if name not in kinds or not text:
            raise GbnfError(f"--shaping {pair}: give FIELD=VALUE, FIELD one of {', '.join(kinds)}")
        kind = kinds[name]
        try:
            if kind.startswith("frozenset"):  # sources_off=dates,codes
                changes[name] = frozenset(part.strip() for part in text.split(",") if part.strip())
            elif text in ("none", "null", "0") and "None" in kind:  # 0: no cap, as with no value
                changes[name] = None
            elif kind == "bool":
                changes[name] = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}[text]
            else:
                changes[name] = (int if kind.startswith("int") else float)(text)
        except (KeyError, ValueError):
            raise GbnfError(f"--shaping {pair}: {name} is {kind.replace('None', 'none')}") from None
    return changes


def _profile_line(command: str, shaping: Shaping, chosen: bool, parameters: float | None) -> str:
    """The line that says which profile shapes requests, and why."""
    why = "--profile" if chosen else (f"{parameters / 1e6:,.0f} M parameters" if parameters else "size unknown")
    return f"gbnf {command}: profile {shaping.profile} ({why})"


def _check(args: argparse.Namespace) -> int:
    tools = load_manifests(args.path)
    grammar = compile_pool(tools)
    problems = []
    for tool in tools:
        try:
            if tool.executor is not None:
                tool.executor.check()
        except ExecutorFailed as exc:
            problems.append(f"{tool.source}: executor: {exc}")
    for problem in problems:
        print(problem)
    print(f"{len(tools)} manifests {'OK' if not problems else 'read'} ({len(grammar.rules)} grammar rules)")
    for spot in grammar.looser:
        print(f"  looser than the schema at {spot}")
    runs = [f"{t.name} ({t.executor.kind})" for t in tools if t.executor is not None]
    idle = [t.name for t in tools if t.executor is None and t.name != DEFAULTS.final_tool]
    if runs:
        print(f"  run by gbnf plan: {', '.join(runs)}")
    if idle:
        print(f"  no executor (add an [executor] table, or plan them with --dry-run): {', '.join(idle)}")
    return 1 if problems else 0


def _import(args: argparse.Namespace) -> int:
    from gbnf.tools import read_import_file, write_manifests

    groups = read_import_file(args.file, args.source)
    written, skipped = 0, 0
    for group, imported in groups.items():
        paths, refused = write_manifests(imported.tools, args.output / group, force=args.force)
        written += len(paths)
        for problem in [*imported.skipped, *refused]:
            print(f"gbnf: skipped {problem}", file=sys.stderr)
            skipped += 1
        for note in imported.notes:
            print(f"gbnf: repaired {note}", file=sys.stderr)
    where = f"{len(groups)} folders under {args.output}" if len(groups) > 1 else str(args.output)
    print(f"{written} manifests written to {where}" + (f"; {skipped} skipped" if skipped else ""))
    return 2 if not written else 1 if skipped else 0


def _lint(args: argparse.Namespace) -> int:
    if args.file.is_dir() or args.file.suffix == ".toml":  # manifests: checked as gbnf check does
        args.path = args.file
        return _check(args)
    from gbnf.lint import lint

    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GbnfError(f"{args.file}: cannot read: {exc}") from None
    problems = lint(text)
    for problem in problems:
        print(f"{args.file}:{problem}")
    if not problems:
        print(f"{args.file}: OK")
    return 1 if problems else 0


def _plan(args: argparse.Namespace) -> int:
    with _mcp_tools(args) as mcp:
        code = _run_plan(args, mcp.tools, mcp.executors)
    return 1 if mcp.failures else code


def _run_plan(args: argparse.Namespace, extra: list[Tool], extra_executors: dict[str, Any]) -> int:
    from gbnf.backends import Sampling
    from gbnf.plan import Planner, TraceWriter
    from gbnf.tools import load_policy

    own = args.manifests != Path("manifests") or args.manifests.is_dir() or not extra
    tools = [*(load_manifests(args.manifests) if own else []), *extra]
    policy = load_policy(args.policy)
    if args.server:
        from gbnf.backends import ServerBackend

        remote = ServerBackend(args.server, upstream=args.upstream_kind, dialect=args.grammar_dialect)
        remote.wait_healthy()
        backend: Backend = remote
        parameters = None if args.profile else remote.parameters()
    else:
        from gbnf.backends import LlamaCppBackend

        local = LlamaCppBackend(args.model, grammar_engine=args.engine, n_gpu_layers=args.n_gpu_layers)
        backend, parameters = local, local.parameters()
    sampling = Sampling(max_tokens=args.max_tokens, temperature=args.temperature, seed=args.seed)
    profile = Shaping.named(args.profile) if args.profile else Shaping.for_model(parameters)
    shaping = replace(profile, **shaping_changes(args.shaping))
    options = replace(DEFAULTS, max_steps=args.max_steps, parallel=args.parallel, sampling=sampling, mode=args.mode,
                      salvage=not args.no_salvage, cite=not args.no_cite, shaping=shaping,
                      top_k=None if args.all_tools else args.top_k, dry_run=args.dry_run)
    planner = Planner(tools, backend, extra_executors, options=options, policy=policy)
    events: list[Event] = []
    planner.subscribe(events.append)
    trace = TraceWriter(args.trace) if args.trace else None
    if trace:
        planner.subscribe(trace)
    try:
        result = planner.run(args.query)
    finally:
        if trace:
            trace.close()
    if result.answer is not None:
        print(result.answer, flush=True)
    if result.status == "dry_run":
        print(json_text([{"name": call.name, "arguments": call.arguments} for call in result.planned]), flush=True)
    print(_outcome(result), file=sys.stderr)
    if args.verbose:
        print(_profile_line("plan", shaping, bool(args.profile), parameters), file=sys.stderr)
        for event in events:
            _print_event(event)
    return 0 if result.answer is not None or result.status == "dry_run" else 1


def _outcome(result: PlanResult) -> str:
    """One line on how the plan ended."""
    steps = f"{result.steps} step{'s' if result.steps != 1 else ''}"
    if result.finished_by == "model":
        return f"({steps}, answered by the model)"
    if result.finished_by == "loop":
        return f"({steps}; the model repeated a call, so this answer comes from the tool results)"
    if result.finished_by == "salvage":
        return f"({steps}; no final answer ({result.error}), so this answer comes from the tool results)"
    if result.status == "dry_run":
        return f"({steps}; dry run: {result.error})"
    if result.status == "no_executor":
        return f"gbnf: {result.error}, or --dry-run"
    return f"gbnf: no answer ({result.status}): {result.error}"


def _print_event(event: Event) -> None:
    data = event.data
    if event.kind == "pool":
        dropped = ", ".join(data["dropped"]) or "none"
        line = f"pool: {len(data['tools'])} tools (dropped: {dropped})"
    elif event.kind == "call":
        line = f"step {event.step}: {json_text({'name': data['name'], 'arguments': data['arguments']})}"
    elif event.kind == "result":
        line = f"  -> {json_text(data['result'])[:200]}"
    elif event.kind in ("tool_error", "validation_error"):
        line = f"  !! {data['error']}"
    elif event.kind == "reasked":
        line = f"  !! {', '.join(data['tools'])} failed with these arguments before: asked again without it"
    elif event.kind == "abort":
        line = f"stopped: {data['error']}"
    elif event.kind == "rank":
        line = "ranked: " + ", ".join(f"{name} {score:g}" for name, score, _ in data["ranking"][:8])
        line += f"\n  step 1 offers: {', '.join(data['first'])}"
    elif event.kind == "salvage":
        line = "salvage: answering from the tool results" if data["answered"] else f"salvage: {data['error']}"
    elif event.kind == "cite":
        line = "cited: the answer left out tool results, so they follow it"
    else:
        return
    print(line, file=sys.stderr)


def _serve(args: argparse.Namespace) -> int:
    from gbnf.endpoint import LocalModel, RemoteModels, ServedTools, read_keys, serve

    limits = Limits(**{limit.name: getattr(args, f"limit_{limit.name}") or None for limit in fields(Limits)})
    if min(args.max_retries, args.queue, *(limit or 0 for limit in vars(limits).values()), args.drain_seconds) < 0 \
            or not args.timeout > 0 \
            or not 0 <= args.port <= 65535:
        raise GbnfError("--max-retries, --queue, --limit-* and --drain-seconds must be >= 0, --timeout > 0, "
                        "--port 0-65535")
    changes = shaping_changes(args.shaping)
    keys = read_keys(args.api_key, os.environ.get("GBNF_API_KEY"), args.api_key_file)
    if (args.mcp or args.mcp_url or args.mcp_config) and not args.run_tools:
        raise GbnfError("--mcp, --mcp-url and --mcp-config give the server tools that a request without tools "
                        "would run, for any client that reaches it: add --run-tools to allow that")
    urls = args.server or ([os.environ["GBNF_SERVER"]] if os.environ.get("GBNF_SERVER") else [])
    model = (RemoteModels(urls, timeout=args.timeout, upstream=args.upstream_kind, dialect=args.grammar_dialect)
             if urls else LocalModel(args.model, queue=args.queue, engine=args.engine, n_gpu_layers=args.n_gpu_layers))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # uvicorn shuts down gracefully, then re-raises it
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s:     %(name)s: %(message)s")
    shaping = replace(Shaping.named(args.profile), **changes) if args.profile else None
    with _mcp_tools(args) as mcp:
        served = ServedTools(tuple(mcp.tools), mcp.executors) if mcp.tools else None
        serve(model, host=args.host, port=args.port, max_retries=args.max_retries, shaping=shaping, changes=changes,
              served=served,
              limits=limits, keys=keys, open_without_key=args.no_api_key, drain_seconds=args.drain_seconds,
              log_level="info" if args.verbose else "warning")
    return 0


def _server_build(args: argparse.Namespace) -> int:
    from gbnf.llama_server import (
        ENV_CUDA,
        ENV_LLGUIDANCE,
        build_llama_server,
        built_binary,
        cuda_wanted,
        find_llama_server,
        llguidance_wanted,
    )

    chosen = {env: wanted for env, wanted, default in ((ENV_CUDA, args.cuda, cuda_wanted()),
                                                      (ENV_LLGUIDANCE, args.llguidance, llguidance_wanted()))
              if wanted is not None and wanted != default}
    if not chosen:
        print(find_llama_server() or build_llama_server())
        return 0
    path = built_binary(args.cuda, args.llguidance)
    print(path if path.is_file() else build_llama_server(cuda=args.cuda, llguidance=args.llguidance))
    print(f"gbnf: this build is used when {' and '.join(f'${env}={int(on)}' for env, on in chosen.items())} is set",
          file=sys.stderr)
    return 0


def _server_start(args: argparse.Namespace) -> int:
    from gbnf.llama_server import LlamaServer

    server = LlamaServer(args.model, host=args.host, port=args.port, n_ctx=args.ctx_size, parallel=args.parallel,
                         n_gpu_layers=args.n_gpu_layers, threads=args.threads)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop the server on SIGTERM too
    with server:
        print(f"llama-server ready at {server.url} (log: {server.log_path}); Ctrl-C stops it", flush=True)
        try:
            assert server.process is not None
            code = server.process.wait()
        except KeyboardInterrupt:
            return 0
    if line := crash_line("llama-server", code):
        raise GbnfError(f"{line} (log: {server.log_path})")
    return 0 if code == 0 else 1


def _doctor(args: argparse.Namespace) -> int:
    from gbnf.cli._doctor import report

    return report(args.model, server=not args.no_server)


def _compile(args: argparse.Namespace) -> int:
    grammar = compile_pool(load_manifests(args.path), parallel=args.parallel, layout=args.layout,
                           dialect=args.dialect)
    if args.output:
        args.output.write_text(grammar.text, encoding="utf-8")
    else:
        sys.stdout.write(grammar.text)
    return 0
