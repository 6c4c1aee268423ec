"""The pool filter: a pure function of (tools, query, policy)."""

from __future__ import annotations

import pytest

from gbnf import ManifestError, Tool
from gbnf.shape.rules import filter_pool, has_marker, pool_decisions
from gbnf.tools import Policy, load_policy


def names(tools, query, policy=None):
    return {t.name for t in filter_pool(tools, query, policy)}


HATCHES = {"request_new_executor", "request_location_from_user", "undo_last_turn",
           "create_event_google_workspace", "search_notes_notion"}


@pytest.mark.parametrize("query, kept", [
    ("create folder /tmp/x", set()),  # the seed's bug: no GPS for a folder
    ("what time is it?", set()),
    ("restaurants near me", {"request_location_from_user"}),
    ("any pharmacy nearby?", {"request_location_from_user"}),
    ("is there a bar here", {"request_location_from_user"}),
    ("c'è una farmacia qui vicino?", {"request_location_from_user"}),
    ("gibt es ein Café in der Nähe", {"request_location_from_user"}),
    ("annulla l'ultima operazione", {"undo_last_turn"}),
    ("please UNDO that", {"undo_last_turn"}),
    ("roll  back the last change", {"undo_last_turn"}),
    ("put lunch with Ann in my Google Calendar", {"create_event_google_workspace"}),
    ("share it on Drive", {"create_event_google_workspace"}),
    ("search my Notion for the tax notes", {"search_notes_notion"}),
])
def test_seed_table(tools, query, kept):
    assert names(tools, query) & HATCHES == kept
    assert "final_answer" in names(tools, query)


@pytest.mark.parametrize("query", [
    "fammi sapere qualcosa",        # "qua" inside "qualcosa"
    "there is nothing",              # "here" inside "there"
    "the undone tasks",              # "undo" inside "undone"
    "googled it yesterday",          # "google" inside "googled"
    "a notional amount",             # "notion" inside "notional"
    "somewhere nearbyish",           # "nearby" inside "nearbyish"
])
def test_markers_never_match_inside_words(tools, query):
    assert names(tools, query) & HATCHES == set()


def test_marker_patterns_are_unicode_and_whole_word():
    assert has_marker("Ist es in der NÄHE?", ["in der nähe"])
    assert has_marker("near\tme please", ["near me"])
    assert not has_marker("nearme", ["near me"])
    assert has_marker("see notion.so/page", ["notion.so"])
    assert not has_marker("see notionXso", ["notion.so"])
    assert has_marker("@gmail works", ["@gmail"])
    assert has_marker("qua", ["qua"]) and not has_marker("qualcosa", ["qua"])


def test_new_executor_hatch_depends_on_canonical_count():
    hatch = Tool("request_new_executor", "d", kind="escape_hatch", min_canonical=3)
    canon = [Tool(f"t{i}", "d") for i in range(3)]
    assert "request_new_executor" in names([hatch, *canon[:2]], "anything")
    assert "request_new_executor" not in names([hatch, *canon], "anything")
    with_markers = Tool("request_new_executor", "d", kind="escape_hatch", min_canonical=3,
                        markers=("new tool",))
    assert "request_new_executor" in names([with_markers, *canon], "I need a new tool for this")


def test_provider_suffix_needs_a_provider_marker_even_when_canonical():
    tool = Tool("post_message_slack", "d")
    assert names([tool], "post hi") == set()
    assert names([tool], "post hi on Slack") == {"post_message_slack"}
    reasons = dict((t.name, r) for t, r in pool_decisions([tool], "post hi"))
    assert reasons["post_message_slack"] == "the query names no slack marker"


def test_adding_a_provider_is_one_line_of_policy(tmp_path):
    tool = Tool("create_page_confluence", "d", kind="escape_hatch")
    assert names([tool], "make a confluence page") == {"create_page_confluence"}  # unknown provider: kept
    policy_file = tmp_path / "policy.toml"
    policy_file.write_text('[providers]\nconfluence = ["confluence", "wiki"]\n')
    policy = load_policy(policy_file)
    assert names([tool], "make a confluence page", policy) == {"create_page_confluence"}
    assert names([tool], "make a page", policy) == set()


def test_filter_is_pure_and_keeps_order(tools):
    before = list(tools)
    first = filter_pool(tools, "restaurants near me")
    assert filter_pool(tools, "restaurants near me") == first
    assert tools == before
    assert [t.name for t in first] == [t.name for t in tools if t in first]


def test_broken_policy_names_file_and_key(tmp_path):
    bad = tmp_path / "p.toml"
    bad.write_text('[providers]\nslack = "slack"\n')
    with pytest.raises(ManifestError, match=r"p\.toml: providers\.slack: must be a list"):
        load_policy(bad)
    bad.write_text("providers = [")
    with pytest.raises(ManifestError, match="cannot read the policy"):
        load_policy(bad)
    assert load_policy().providers["google_workspace"]
    assert Policy().providers == {}
