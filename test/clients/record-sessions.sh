#!/usr/bin/env bash
# Records the client scripts in docs/clients/*.py against a fresh server with demo data, into the
# sessions test/conformance/sessions.test.ts replays against the emitted OpenAPI documents. Run
# it after a change to what the server answers, and review the diff of the recordings.
#
#   test/clients/record-sessions.sh [script.py …]          (default: every recorded session)
#
# Needs Debian's python3-requests, python3-packaging and python3-pynetbox, and pynautobot 1.5.5's
# source (PYNAUTOBOT_SRC, default /work/clients/pynautobot). The server runs on the embedded
# database in memory; the recorder forwards to it directly (docs/clients/README.md says how to
# put Prism in between instead).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
PYNAUTOBOT_SRC="${PYNAUTOBOT_SRC:-/work/clients/pynautobot}"
PYTHON="${PYTHON:-/usr/bin/python3}"
sessions="$root/test/conformance/sessions"
free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

if [[ $# -gt 0 ]]; then scripts=("$@"); else
  scripts=()
  for f in "$sessions"/*.json; do scripts+=("$(basename "$f" .json).py"); done
fi

log="$(mktemp)"
port="$(free_port)"
(cd "$root" && DATA_DIR=memory:// PORT="$port" exec node --import tsx bin/armature.ts run) >"$log" 2>&1 &
server=$!
recorder=""
trap 'kill $server $recorder 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 240); do
  token="$(grep -o 'Token [0-9a-f]\{40\}' "$log" | head -1 | cut -d' ' -f2 || true)"
  [[ -n "$token" ]] && break
  kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.5
done
[[ -n "$token" ]] || { echo "the server printed no token" >&2; cat "$log" >&2; exit 1; }

for script in "${scripts[@]}"; do
  name="$(basename "$script" .py)"
  client="pynautobot 1.5.5"
  case "$name" in
    pynetbox-*) client="pynetbox 7" ;;
    wordpress-*) client="python requests (WordPress-style)" ;;
  esac
  rport="$(free_port)"
  node --import tsx "$root/test/support/record-session.ts" "$rport" "http://127.0.0.1:$port" \
    "$sessions/$name.json" "$client: docs/clients/$name.py" >/dev/null &
  recorder=$!
  until (echo >"/dev/tcp/127.0.0.1/$rport") 2>/dev/null; do sleep 0.2; done
  echo "== $name"
  (cd "$root/docs/clients" && NAUTOBOT_URL="http://127.0.0.1:$rport" CALENDAR_URL="http://127.0.0.1:$rport" \
    NAUTOBOT_TOKEN="$token" PYTHONPATH="$PYNAUTOBOT_SRC" "$PYTHON" "$name.py") >/dev/null
  kill "$recorder"
  wait "$recorder" 2>/dev/null || true
  recorder=""
done
