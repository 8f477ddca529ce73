#!/usr/bin/env bash
# SQLite on Node 24 (docs/OPERATIONS.md, "SQLite on Node 24"): better-sqlite3 compiled
# against Node >= 24.19 headers aborts the process when a statement is garbage-collected.
# This script, on the newest Node 24:
#   1. compiles better-sqlite3 twice, against that Node's own headers and against 24.18.1's
#      (both from the npm registry: node-linux-<arch>@<version>), in a copy of the app;
#   2. runs the service's probe (dist/src/database/sqlite-gc-probe.js) on both: the
#      24.18.1 build must pass; the other is reported (it fails while Node has the change);
#   3. when the newest Node's build fails the probe: the service must refuse to start with
#      it (exit 1, one fatal line), not start and abort later, and so must the CLI;
#   4. with the 24.18.1 build: the service starts on SQLite, logs the admin in, and keeps
#      answering after statements were dropped inside it and collected (a --require hook).
# Exits non-zero on any failure. Needs dist/ (npm run build) and a C++ toolchain.
#
# Environment (all optional): NODE24_BIN (default: the npm package node@24, through npx),
# SMOKE_PORT (default: a free port).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/smoke-node24-sqlite.XXXXXX")"
SERVER_PID=""
PINNED=24.18.1

say() { echo "smoke-node24-sqlite: $*"; }
fail() {
  say "FAILED: $*" >&2
  [[ -s "$WORK/server.log" ]] && { echo '--- server log (last 20 lines) ---' >&2; tail -n 20 "$WORK/server.log" >&2; }
  exit 1
}
cleanup() {
  local status=$?
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    sleep 1
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[[ -f dist/src/main.js ]] || fail 'dist/src/main.js is missing (npm run build first)'
# shellcheck source=smoke-common.sh
source "$ROOT/scripts/smoke-common.sh"

case "$(uname -m)" in
  x86_64) ARCH=x64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) fail "no node-linux package for $(uname -m)" ;;
esac
NODE_GYP="$(npm prefix -g)/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
[[ -f "$NODE_GYP" ]] || fail "npm's node-gyp not found at $NODE_GYP"

# Headers of a Node version: its npm package holds include/node.
headers() {
  local version="$1" dir="$WORK/headers-$1"
  mkdir -p "$dir"
  (cd "$dir" && npm pack --silent "node-linux-$ARCH@$version" >/dev/null && tar xzf ./*.tgz) ||
    fail "npm pack node-linux-$ARCH@$version"
  echo "$dir/package"
}

# A copy of better-sqlite3 (and its runtime dependency) compiled for Node 24 against $1.
compile() {
  local nodedir="$1" out="$2"
  mkdir -p "$out/node_modules"
  cp -a node_modules/better-sqlite3 node_modules/bindings node_modules/file-uri-to-path "$out/node_modules/"
  (cd "$out/node_modules/better-sqlite3" && PATH="$(dirname "$NODE24_BIN"):$PATH" \
    "$NODE24_BIN" "$NODE_GYP" rebuild --release --jobs=max --nodedir="$nodedir" >"$out/gyp.log" 2>&1) ||
    { tail -n 20 "$out/gyp.log" >&2; fail "compiling better-sqlite3 against $nodedir"; }
}

probe() {
  "$NODE24_BIN" --input-type=module -e "
    const { probeSqliteGc } = await import('$ROOT/dist/src/database/sqlite-gc-probe.js');
    const probe = probeSqliteGc('$1/node_modules/better-sqlite3');
    console.log(probe.detail);
    process.exit(probe.ok ? 0 : 1);
  "
}

say "compiling better-sqlite3 against Node $PINNED and ${NODE24_VERSION#v} headers"
compile "$(headers "$PINNED")" "$WORK/pinned"
compile "$(headers "${NODE24_VERSION#v}")" "$WORK/newest"

probe "$WORK/pinned" >"$WORK/probe-pinned.txt" 2>&1 ||
  fail "the $PINNED build does not survive the GC probe on $NODE24_VERSION: $(cat "$WORK/probe-pinned.txt")"
say "probe, $PINNED headers: $(cat "$WORK/probe-pinned.txt")"
newest_ok=1
probe "$WORK/newest" >"$WORK/probe-newest.txt" 2>&1 || newest_ok=0
say "probe, ${NODE24_VERSION#v} headers: $(head -c 200 "$WORK/probe-newest.txt")"

# The app as the image has it, with one of the two builds in node_modules.
APP="$WORK/app"
mkdir -p "$APP"
cp -a package.json dist "$APP/"
cp -a node_modules "$APP/node_modules"
use_build() {
  rm -rf "$APP/node_modules/better-sqlite3"
  cp -a "$1/node_modules/better-sqlite3" "$APP/node_modules/better-sqlite3"
}

PORT="${SMOKE_PORT:-$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
BASE="http://127.0.0.1:$PORT"
ADMIN_EMAIL="smoke-admin@example.test"
ADMIN_PASSWORD="smoke-$(node -p 'require("crypto").randomBytes(12).toString("hex")')"
start() {
  rm -rf "$WORK/data"
  (cd "$APP" && exec env NODE_ENV=production PORT="$PORT" DATA_DIR="$WORK/data" \
    JWT_SECRET="$(node -p 'require("crypto").randomBytes(48).toString("base64url")')" \
    ADMIN_EMAIL="$ADMIN_EMAIL" ADMIN_PASSWORD="$ADMIN_PASSWORD" LOG_LEVEL=warn \
    "$NODE24_BIN" "$@" dist/src/main.js >"$WORK/server.log" 2>&1) &
  SERVER_PID=$!
}

if [[ "$newest_ok" == 0 ]]; then
  use_build "$WORK/newest"
  start
  for _ in $(seq 1 60); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$SERVER_PID" 2>/dev/null && fail 'the service started with a build that fails the GC probe'
  code=0
  wait "$SERVER_PID" || code=$?
  SERVER_PID=""
  [[ "$code" == 1 ]] || fail "the service exited with $code, not 1, on the failing build"
  grep -q '"level":"fatal".*better-sqlite3 aborts the process' "$WORK/server.log" ||
    fail 'no fatal line naming better-sqlite3 in the log'
  say "the ${NODE24_VERSION#v}-header build: the service refused to start (exit 1, one fatal line)"
  cli_code=0
  (cd "$APP" && env DATA_DIR="$WORK/data" "$NODE24_BIN" dist/src/cli/main.js migrate) \
    >"$WORK/cli.log" 2>&1 || cli_code=$?
  [[ "$cli_code" == 1 ]] && grep -q 'better-sqlite3 aborts the process' "$WORK/cli.log" ||
    fail "the CLI on the failing build: exit $cli_code, $(head -c 300 "$WORK/cli.log")"
  say "the ${NODE24_VERSION#v}-header build: the CLI refused too (exit 1)"
else
  say "the ${NODE24_VERSION#v}-header build survives the probe: Node no longer has the change, the pin can go"
fi

# Statements dropped inside the running service, then enough allocation for scavenges.
cat >"$WORK/drop-statements.cjs" <<EOF
setTimeout(() => {
  const Database = require('$APP/node_modules/better-sqlite3');
  const db = new Database(':memory:');
  globalThis.smokeDatabase = db;
  for (let i = 0; i < 16; i++) db.prepare('SELECT ' + i).get();
  let garbage = [];
  for (let i = 0; i < 3e6; i++) { garbage.push({ i }); if (garbage.length > 1e5) garbage = []; }
  require('fs').writeFileSync('$WORK/dropped', 'collected');
}, 3000);
EOF
use_build "$WORK/pinned"
start --require "$WORK/drop-statements.cjs"
wait_ready "$BASE"
[[ "$ready" == *'"database":"better-sqlite3"'* ]] || fail "GET /health/ready: ${ready:-no answer}"
for _ in $(seq 1 40); do [[ -f "$WORK/dropped" ]] && break; sleep 0.25; done
[[ -f "$WORK/dropped" ]] || fail 'the dropped statements were not collected in time'
kill -0 "$SERVER_PID" 2>/dev/null || fail 'the service died after statements were collected'
login_status="$(curl -sS --max-time 10 -o "$WORK/login.json" -w '%{http_code}' \
  -H 'Content-Type: application/json' \
  -d "{\"email\":\"$ADMIN_EMAIL\",\"password\":\"$ADMIN_PASSWORD\"}" "$BASE/v1/login")"
[[ "$login_status" == 201 ]] || fail "POST /v1/login answered $login_status"
say "OK: Node $NODE24_VERSION on SQLite with the $PINNED build: ready, statements collected, login 201"
