"""Drives `drift-lsp mcp` with the official MCP Python SDK (PyPI mcp 2.x):
every tool on testdata/workspace, progress from formalize, and bad input.

    python client.py DRIFT_LSP_BINARY WORKSPACE_ROOT

The server inherits this process's environment (the Go test sets the cache,
the fake model's endpoint, ...). Prints one line per check; exits 1 when one
fails.
"""

import os
import sys

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

failures = []


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else ": " + detail))
    if not ok:
        failures.append(what)


def text(res):
    return "".join(getattr(c, "text", "") for c in res.content)


async def main(binary, root):
    params = StdioServerParameters(command=binary, args=["mcp", "--root", root], env=dict(os.environ), cwd=root)
    async with Client(params, read_timeout_seconds=120) as client:
        tools = await client.list_tools()
        names = sorted(t.name for t in tools.tools)
        check("tools/list", names == sorted(["search", "check_names", "declaration", "retrieve", "check", "formalize", "lint_docs"]), str(names))
        for t in tools.tools:
            check(t.name + " has schemas", t.input_schema.get("type") == "object" and (t.output_schema or {}).get("type") == "object")

        res = await client.call_tool("search", {"query": "prime number", "k": 3})
        hits = (res.structured_content or {}).get("hits", [])
        check("search", not res.is_error and hits and hits[0]["name"] == "Mm.Prime", text(res))

        res = await client.call_tool("check_names", {"names": ["Mm.Prime", "Mm.IsOdd"]})
        sc = res.structured_content or {}
        got = [(n["name"], n["known"]) for n in sc.get("names", [])]
        check("check_names", got == [("Mm.Prime", True), ("Mm.IsOdd", False)] and "Mm.Odd" in sc["names"][1]["suggestions"], text(res))

        res = await client.call_tool("declaration", {"name": "Mm.Prime"})
        sc = res.structured_content or {}
        check("declaration", sc.get("source", "").startswith("def Prime (p : Nat) : Prop") and sc.get("line") == 107, text(res))

        res = await client.call_tool("retrieve", {"statement": "Every prime number greater than 2 is odd.", "k": 5, "m": 2})
        premises = [p["name"] for p in (res.structured_content or {}).get("premises", [])]
        check("retrieve", "Mm.Prime" in premises and "Mm.Odd" in premises, text(res))

        res = await client.call_tool("check", {"stub": "theorem t (p : Nat) (hp : Mm.Prime p) : Mm.IsOdd p := by sorry"})
        sc = res.structured_content or {}
        check("check", not res.is_error and sc.get("gate_passed") and not sc.get("passed") and sc["unknown"][0]["name"] == "Mm.IsOdd", text(res))

        res = await client.call_tool("check", {"stub": "#eval IO.println 1"})
        sc = res.structured_content or {}
        check("check: the gate refuses a command (a tool error with the report)", res.is_error and sc.get("gate_passed") is False and not sc.get("lean_ran") and "#eval" in sc.get("gate_reason", ""), text(res))

        events = []

        async def progress(done, total, message):
            events.append(message)

        res = await client.call_tool("formalize", {"statement": "Every prime number greater than 2 is odd.", "name": "odd_of_prime_gt_two"}, progress_callback=progress)
        sc = res.structured_content or {}
        check("formalize", not res.is_error and sc.get("stub", "").startswith("theorem odd_of_prime_gt_two"), text(res))
        check("formalize: progress notifications", len(events) > 0, str(events))

        res = await client.call_tool("lint_docs", {})
        sc = res.structured_content or {}
        check("lint_docs", not res.is_error and sc.get("files", 0) > 0 and sc.get("total") == 0, text(res))

        for name, args, want in [
            ("no_such_tool", {}, "unknown tool"),
            ("search", {"query": 5}, "validating"),
            ("search", {"query": "x" * 20000}, "more than the limit"),
            ("check_names", {"names": "Mm.Prime"}, "validating"),
        ]:
            try:
                res = await client.call_tool(name, args)
                check("bad input to " + name + ": tool error", res.is_error and want in text(res), text(res))
            except Exception as e:  # a protocol error is not a tool error
                check("bad input to " + name + ": tool error", False, repr(e))

        res = await client.call_tool("search", {"query": "greatest common divisor"})
        check("still serving after bad input", not res.is_error, text(res))


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
    sys.exit(1 if failures else 0)
