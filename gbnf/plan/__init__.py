"""The tool loop: filter and rank the pool, ask for one constrained call, validate, execute,
repeat; the events a plan emits, and the salvage of an answer from the
results gathered when the model gives none."""

from gbnf.plan._events import Event, TraceWriter
from gbnf.plan._options import RETRY_TEMPERATURE, Mode, PlanOptions
from gbnf.plan._planner import FINAL_ANSWER, Executor, Planner, PlanResult, openai_tools
from gbnf.plan._salvage import cite, cut_repetition, grounded, omitted, salvage, salvage_messages

__all__ = ["FINAL_ANSWER", "RETRY_TEMPERATURE", "Event", "Executor", "Mode", "PlanOptions", "PlanResult", "Planner",
           "TraceWriter", "cite", "cut_repetition", "grounded", "omitted", "openai_tools",
           "salvage", "salvage_messages"]
