"""Tool relevance: BM25 ranking, the model's relevance, and which tools each step offers."""

from __future__ import annotations

import pytest

from gbnf import Tool
from gbnf.rank import ModelRelevance, rank_tools, select_tools, tool_document
from tests.conftest import REPO

BENCH_TOOLS = REPO / "bench" / "tools"


def names(ranked):
    return [r.tool.name for r in ranked]


def test_a_tool_document_reads_names_descriptions_and_parameters(tools):
    send = next(t for t in tools if t.name == "send_messages")
    doc = tool_document(send)
    assert doc.startswith("send messages Send a message") and "recipients" in doc and "email" in doc


@pytest.mark.parametrize("query, best", [
    ("Remind me to call mom tomorrow", "schedule_reminder"),  # stemmed: remind ~ reminder
    ("What's the weather in Paris?", "get_weather"),
    ("Find the PDF files in /tmp", "find_files"),
    ("Create the folder /tmp/reports", "create_folder"),
])
def test_bm25_puts_the_obvious_tool_first(tools, query, best):
    assert names(rank_tools(tools, query))[0] == best


def test_stop_words_match_nothing(tools):
    assert all(r.score == 0 for r in rank_tools(tools, "How do you do? What is it?"))


def test_ties_keep_pool_order_and_the_model_breaks_them(tools):
    ranked = rank_tools(tools, "zzz")
    assert names(ranked) == [t.name for t in tools]
    model = [float(i) for i in range(len(tools))]
    assert names(rank_tools(tools, "zzz", model)) == [t.name for t in reversed(tools)]
    weather = rank_tools(tools, "weather", model)
    assert names(weather)[0] == "get_weather" and weather[0].model == float(tools.index(weather[0].tool))


def test_select_with_evidence_acts_first_then_offers_the_final_tool(tools):
    chosen = select_tools(tools, "What's the weather in Paris?", 3, "final_answer")
    assert chosen.evidence
    assert [t.name for t in chosen.first] == ["get_weather"]
    assert [t.name for t in chosen.later] == ["get_weather", "final_answer"]
    lenient = select_tools(tools, "What's the weather in Paris?", 3, "final_answer", act_first=False)
    assert [t.name for t in lenient.first] == ["get_weather", "final_answer"]


def test_select_keeps_tools_within_half_of_the_best_score():
    a = Tool("send_email", "Send an email message to a contact.")
    b = Tool("find_contact", "Find a contact's email address.")
    c = Tool("play_music", "Play songs.")
    final = Tool("final_answer", "Answer.")
    chosen = select_tools([a, b, c, final], "find Maria's email address and send her a message", 3, "final_answer")
    assert {t.name for t in chosen.first} == {"send_email", "find_contact"}


def test_select_without_evidence_lets_the_model_decide(tools):
    chosen = select_tools(tools, "Who wrote Romeo and Juliet?", 2, "final_answer")
    assert not chosen.evidence
    assert chosen.first == chosen.later and [t.name for t in chosen.first][-1] == "final_answer"
    assert len(chosen.first) == 3
    assert select_tools([], "q", 3, "final_answer").first == []


def test_model_relevance_is_likelihood_gain_with_the_prior_cached():
    calls = []

    def scorer(messages, prefix, continuations):
        calls.append(messages[-1]["content"])
        assert prefix == '{"name": "' and all(c.endswith('"') for c in continuations)
        boost = 5.0 if "music" in messages[-1]["content"] else 0.0
        return [-3.0 + (boost if c.startswith("play") else 0.0) for c in continuations]

    tools = [Tool("get_news", "News."), Tool("play_music", "Play songs.")]
    relevance = ModelRelevance(scorer)
    assert relevance(tools, "some music please") == [0.0, 5.0]
    assert relevance(tools, "news") == [0.0, 0.0]
    assert calls == ["", "some music please", "news"]  # the empty-query prior once per pool
