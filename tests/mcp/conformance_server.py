"""The tools the official MCP conformance suite calls by name, as a PROVE server.

`scripts/mcp-conformance.sh` serves it with `prove serve conformance --load
tests.mcp.conformance_server:make_conformance_server`, so the suite exercises PROVE's real
serving path (binding, episodes, schemas, results). Only the tool scenarios whose tool PROVE's
model can express are here: tools return JSON (text + structuredContent) or raise ToolError;
images, audio, embedded resources, logging, progress, sampling and elicitation have no PROVE
equivalent (see docs/mcp.md).
"""

from __future__ import annotations

from prove.env import READ, Ctx, Server, ToolError


def make_conformance_server() -> Server:
    server = Server("conformance", "Conformance", "The tools the official MCP conformance suite calls by name.",
                    schema="CREATE TABLE notes (note_id TEXT PRIMARY KEY, text TEXT NOT NULL);",
                    world=lambda w: {"notes": [{"note_id": w.new_id("N"), "text": "conformance"}]})

    @server.tool(effect=READ, asks=["Give me a simple text.", "Say something simple."])
    def test_simple_text(ctx: Ctx) -> str:
        """Return a simple text, for the tools-call-simple-text scenario.

        Returns:
            The text 'This is a simple text response for testing.'.
        """
        return "This is a simple text response for testing."

    @server.tool(effect=READ, asks=["Fail on purpose.", "Show me an error."])
    def test_error_handling(ctx: Ctx) -> str:
        """Always fail, for the tools-call-error scenario.

        Returns:
            Never returns.

        Raises:
            test_error: always.
        """
        raise ToolError("test_error", "This tool intentionally returns an error for testing",
                        hint="Nothing to fix: the error is the point of the test.")

    @server.tool(effect=READ, asks=["Test reconnection.", "Run the reconnection test."])
    def test_reconnection(ctx: Ctx) -> str:
        """Answer at once, for the server-sse-polling scenario (PROVE answers JSON, not SSE).

        Returns:
            A confirmation text.
        """
        return "Reconnection test completed successfully"

    return server
