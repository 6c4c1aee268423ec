"""A real MCP server for the tests, written with the MCP SDK: notes to search and read.

    python tests/servers/notes_server.py                    # stdio
    python tests/servers/notes_server.py --http PORT        # Streamable HTTP on 127.0.0.1:PORT/mcp
    python tests/servers/notes_server.py --fault crash      # search_notes kills the server
    python tests/servers/notes_server.py --fault hang       # search_notes never answers
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import Field

NOTES = {
    "dentist": "Dentist appointment on 4 December at 10:30 with Dr Rossi.",
    "groceries": "Buy bread, butter and eggs.",
    "wifi": "The wifi password is tulip42.",
}


def build(fault: str | None) -> MCPServer:
    server = MCPServer("notes")

    @server.tool()
    def search_notes(query: str) -> str:
        """Find the user's note about a topic and return its text."""
        if fault == "crash":
            os._exit(3)
        if fault == "hang":
            time.sleep(3600)
        words = query.lower().split()
        found = [text for key, text in NOTES.items() if any(key in w or w in text.lower() for w in words)]
        return "\n".join(found) or f"no note about {query}"

    @server.tool()
    def count_notes() -> int:
        """How many notes the user has."""
        return len(NOTES)

    @server.tool()
    def impossible(code: Annotated[str, Field(min_length=5, max_length=2)]) -> str:
        """A tool no argument can satisfy: a client must skip it, not fail."""
        return code

    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", type=int, metavar="PORT")
    parser.add_argument("--fault", choices=["crash", "hang"])
    args = parser.parse_args()
    server = build(args.fault)
    if args.http:
        server.run("streamable-http", host="127.0.0.1", port=args.http)
    else:
        server.run()


if __name__ == "__main__":
    main()
