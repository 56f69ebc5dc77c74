#!/usr/bin/env bash
# Runs real clients' OWN integration test suites, unmodified, against this repository's server
# on an empty PostgreSQL database, and prints their pass/fail counts.
#
#   test/clients/run-integration.sh [pynautobot|ansible|permissions|all]     (default: all)
#
# Each suite gets a fresh database (dropped afterwards) and its own server on a free port, as
# each expects an empty Nautobot. See docs/clients/README.md ("The clients' own integration
# tests") for what is needed and what is stood in for. Environment:
#   PYNAUTOBOT_SRC        pynautobot source at tag v1.5.5        (/work/clients/pynautobot)
#   NAUTOBOT_ANSIBLE_SRC  networktocode.nautobot at tag v4.5.1   (/work/clients/nautobot-ansible)
#   PG_ADMIN_URL          a PostgreSQL server allowed to CREATE DATABASE
#                                                   (postgres://postgres@127.0.0.1:5432)
#   PYTHON                the Python that has Debian's pytest, requests, yaml, packaging,
#                         jsondiff and ansible-core                         (/usr/bin/python3)
#   KEEP_WORK=1           keep the scratch directory (logs, rendered files) and print it
#   LATEST_TAGS           run only these task files of the collection's latest target (their
#                         tags, separated by spaces or commas: "plugin_bgp_asn device"), and
#                         skip its inventory target; unset: every one, in main.yml's order
#
# The collection's suite runs against Nautobot with the BGP models app (its plugin_bgp_asn task
# file): its server is started with PLUGINS=bgp.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
PYNAUTOBOT_SRC="${PYNAUTOBOT_SRC:-/work/clients/pynautobot}"
NAUTOBOT_ANSIBLE_SRC="${NAUTOBOT_ANSIBLE_SRC:-/work/clients/nautobot-ansible}"
PG_ADMIN_URL="${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432}"
PYTHON="${PYTHON:-/usr/bin/python3}"
# Both suites hard-code this token (pynautobot's conftest, the collection's inventory files).
TOKEN=0123456789abcdef0123456789abcdef01234567

suites="${1:-all}"
case "$suites" in
  all) suites="pynautobot ansible permissions" ;;
  pynautobot|ansible|permissions) ;;
  *) echo "usage: $0 [pynautobot|ansible|permissions|all]" >&2; exit 2 ;;
esac

work="$(mktemp -d "${TMPDIR:-/tmp}/armature-clients.XXXXXX")"
server_pid=""
database=""

stop_server() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    server_pid=""
  fi
  if [[ -n "$database" ]]; then
    psql -q "$PG_ADMIN_URL/postgres" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null
    database=""
  fi
}

cleanup() {
  stop_server
  if [[ "${KEEP_WORK:-}" == 1 ]]; then echo "scratch directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A fresh database and a server on it with nothing but the administrator and the suites' token:
# `serve` migrates and loads no demo data.
start_server() {
  local name="$1" plugins="${2:-}"
  database="armature_clients_${name}_$$"
  psql -q "$PG_ADMIN_URL/postgres" -c "CREATE DATABASE $database" >/dev/null || return 1
  export DATABASE_URL="$PG_ADMIN_URL/$database"
  port="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  (cd "$root" && node --import tsx bin/armature.ts createsuperuser --username admin --password admin --token "$TOKEN") \
    >"$work/$name-server.log" 2>&1 || { cat "$work/$name-server.log" >&2; return 1; }
  (cd "$root" && PLUGINS="$plugins" exec node --import tsx bin/armature.ts serve --port "$port") >>"$work/$name-server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 240); do
    if curl -sf -o /dev/null "http://127.0.0.1:$port/api/"; then
      url="http://127.0.0.1:$port"
      # The suites also name the server `http://nautobot:8000` (their docker service) in places
      # we may not edit: that name goes through an HTTP proxy, which is the server itself.
      export NAUTOBOT_URL="$url" NAUTOBOT_TOKEN="$TOKEN" HTTP_PROXY="$url" http_proxy="$url" \
        NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
      return 0
    fi
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.5
  done
  echo "the server did not start:" >&2
  cat "$work/$name-server.log" >&2
  return 1
}

summary=()

run_pynautobot() {
  start_server pynautobot || return 1
  local log="$work/pynautobot.log"
  echo "== pynautobot $(git -C "$PYNAUTOBOT_SRC" describe --tags 2>/dev/null): tests/integration against $url"
  # --noconftest: the suite's conftest is loaded by the plugin instead, which replaces only the
  # fixture that clones the devicetype-library from GitHub (see armature_pynautobot.py).
  (cd "$PYNAUTOBOT_SRC" && PYNAUTOBOT_SRC="$PYNAUTOBOT_SRC" PYTHONDONTWRITEBYTECODE=1 \
    PYTHONPATH="$PYNAUTOBOT_SRC:$here/pynautobot" \
    "$PYTHON" -m pytest --noconftest -p armature_pynautobot -p no:cacheprovider -rA \
      --junitxml="$work/pynautobot.xml" tests/integration) >"$log" 2>&1
  sed -n '/short test summary info/,$p' "$log"
  summary+=("pynautobot: $("$PYTHON" "$here/junit_counts.py" "$work/pynautobot.xml")")
  stop_server
}

run_ansible() {
  start_server ansible bgp || return 1
  local coll="$work/collections/ansible_collections/networktocode/nautobot"
  local it="$coll/tests/integration"
  mkdir -p "$coll" "$work/bin" "$work/inventory-out" "$work/latest"
  # A copy, as ansible-test makes: rendering writes integration_config.yml into the tree.
  tar -C "$NAUTOBOT_ANSIBLE_SRC" --exclude=.git -cf - . | tar -C "$coll" -xf -
  # What ansible-test puts on PATH: `python.py` (its interpreter injector) and a `python` that
  # has the collection's test requirements.
  for name in python python3 python.py; do ln -sf "$PYTHON" "$work/bin/$name"; done
  export PATH="$work/bin:$PATH" PYTHONPATH="$PYNAUTOBOT_SRC" PYTHONDONTWRITEBYTECODE=1 \
    ANSIBLE_COLLECTIONS_PATH="$work/collections" ANSIBLE_CONFIG="$it/integration.cfg" \
    ANSIBLE_ROLES_PATH="$it/targets" ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 NAUTOBOT_VER=1.5
  echo "== networktocode.nautobot $(git -C "$NAUTOBOT_ANSIBLE_SRC" describe --tags 2>/dev/null): tests/integration against $url"
  (cd "$coll" && bash tests/integration/render_config.sh tests/integration/integration_config.tmpl.yml \
    >tests/integration/integration_config.yml) 2>/dev/null

  local populate_rc=0
  (cd "$coll" && python tests/integration/nautobot-populate.py) >"$work/populate.log" 2>&1 || populate_rc=$?
  # The script prints each refused create (and, for want of `global`, still exits 0).
  local refused
  refused="$(grep -c . "$work/populate.log")"
  echo "-- nautobot-populate.py: exit $populate_rc, $refused line(s) of output"
  sed 's/^/   /' "$work/populate.log"

  # The inventory target as ansible-test runs it: runme.sh with OUTPUT_DIR, compared by its
  # own compare_inventory_json.py; then each file's comparison again for a per-file count.
  # Three of its inventory files share a response cache at a fixed path, which must not
  # outlive the server that filled it (ids differ from one empty database to the next).
  local inv_pass=0 inv_fail=0 f base
  [[ -z "${LATEST_TAGS:-}" ]] && rm -rf /tmp/inventory_nautobot && \
    (cd "$it/targets/inventory" && OUTPUT_DIR="$work/inventory-out" bash runme.sh) >"$work/inventory.log" 2>&1
  for f in "$it"/targets/inventory/files/*.yml; do
    [[ -n "${LATEST_TAGS:-}" ]] && break
    base="$(basename "$f" .yml)"
    if [[ -s "$work/inventory-out/$base.json" ]] && python "$it/targets/inventory/compare_inventory_json.py" \
        "${f%.yml}.json" "$work/inventory-out/$base.json" >"$work/inventory-$base.diff" 2>&1; then
      inv_pass=$((inv_pass + 1)); echo "-- inventory $base: ok"
    else
      inv_fail=$((inv_fail + 1)); echo "-- inventory $base: FAILED (diff in inventory-$base.diff)"
    fi
  done
  summary+=("ansible inventory target: $inv_pass passed, $inv_fail failed (files)")

  # The latest target as ansible-test runs a role target (vars_files: integration_config.yml),
  # one task file at a time by the tag its main.yml gives it, in main.yml's order, so one
  # failing file does not hide the others.
  printf 'testhost ansible_connection=local ansible_python_interpreter=%s\n' "$PYTHON" >"$work/inventory"
  cat >"$work/latest.yml" <<EOF
- hosts: testhost
  gather_facts: true
  vars_files:
    - $it/integration_config.yml
  roles:
    - latest
EOF
  local pass=0 fail=0 failed=() tag
  local tags="${LATEST_TAGS:-}"
  local wanted=" ${tags//,/ } "
  for tag in $(sed -n 's/^ *file: "\(.*\)\.yml"$/\1/p' "$it/targets/latest/tasks/main.yml"); do
    [[ -n "${LATEST_TAGS:-}" && "$wanted" != *" $tag "* ]] && continue
    if (cd "$work" && ansible-playbook -i inventory latest.yml --tags "$tag") >"$work/latest/$tag.log" 2>&1; then
      pass=$((pass + 1)); echo "-- latest $tag: ok"
    else
      fail=$((fail + 1)); failed+=("$tag")
      echo "-- latest $tag: FAILED at $(grep -E '^TASK \[' "$work/latest/$tag.log" | tail -1)"
      # The last `fatal:` block (earlier ones were ignored by the task file itself).
      awk '/^fatal:/ { block = ""; on = 1 } on { block = block $0 "\n" } on && /^$/ { on = 0 }
           END { printf "%s", block }' "$work/latest/$tag.log" | head -12 | cut -c1-600 | sed 's/^/     /'
    fi
  done
  summary+=("ansible latest target: $pass passed, $fail failed (task files)${failed[*]:+: ${failed[*]}}")
  summary+=("ansible nautobot-populate.py: exit $populate_rc, $refused line(s) of output")
  stop_server
}

# Not a suite of the client's own: pynautobot, unmodified, driven as a constrained user.
run_permissions() {
  start_server permissions || return 1
  echo "== pynautobot as a user with constrained object permissions against $url"
  local rc=0
  (cd "$here/pynautobot" && PYTHONPATH="$PYNAUTOBOT_SRC" PYTHONDONTWRITEBYTECODE=1 "$PYTHON" constrained_user.py) 2>&1 | sed 's/^/   /'
  rc=${PIPESTATUS[0]}
  summary+=("pynautobot constrained user: $([[ $rc == 0 ]] && echo passed || echo FAILED)")
  stop_server
}

for suite in $suites; do "run_$suite"; done
echo
echo "== summary"
printf '%s\n' "${summary[@]}"
