#!/usr/bin/env bash
# Smoke test on Node 24 LTS (the production runtime): build, start dist/src/main.js under
# Node 24 against a fresh PostgreSQL database, check the probes, log the bootstrap admin
# in, then stop the server and drop the database. Exits non-zero on any failure.
#
# PostgreSQL, not SQLite: better-sqlite3 in node_modules is compiled for the Node that
# ran `npm ci`, and TypeORM loads it only when SQLite is selected.
#
# Environment (all optional):
#   PG_SERVER_URL  a PostgreSQL server URL whose user may create databases
#                  (default postgres://postgres@127.0.0.1:5432/postgres)
#   NODE24_BIN     a Node 24 binary (default: the npm package node@24, through npx)
#   SMOKE_PORT     port to listen on (default 3999, or a free one if 3999 is taken)
#   SKIP_BUILD=1   use the existing dist/ instead of running `npm run build`
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PG_SERVER_URL="${PG_SERVER_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/smoke-node24.XXXXXX")"
LOG="$WORK/server.log"
DB_NAME="cfg_smoke_$(date +%s)_$$"
SERVER_PID=""
DB_CREATED=0

say() { echo "smoke-node24: $*"; }
fail() {
  say "FAILED: $*" >&2
  if [[ -s "$LOG" ]]; then
    echo '--- server log (last 40 lines) ---' >&2
    tail -n 40 "$LOG" >&2
  fi
  exit 1
}

# Runs SQL on the server's maintenance database with the repository's own pg driver.
admin_sql() {
  SQL="$1" SERVER_URL="$PG_SERVER_URL" node --input-type=module -e '
    import pg from "pg";
    const client = new pg.Client({ connectionString: process.env.SERVER_URL });
    await client.connect();
    try { await client.query(process.env.SQL); } finally { await client.end(); }
  '
}

cleanup() {
  local status=$?
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ "$DB_CREATED" == 1 ]]; then
    admin_sql "DROP DATABASE IF EXISTS \"$DB_NAME\" WITH (FORCE)" ||
      say "could not drop database $DB_NAME" >&2
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- Node 24 ---------------------------------------------------------------------------
# shellcheck source=smoke-common.sh
source "$ROOT/scripts/smoke-common.sh"

# --- build -----------------------------------------------------------------------------
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  say 'npm run build'
  npm run build --silent >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail 'build failed'; }
fi
[[ -f dist/src/main.js ]] || fail 'dist/src/main.js is missing (build first or unset SKIP_BUILD)'

# --- database and port -----------------------------------------------------------------
admin_sql "CREATE DATABASE \"$DB_NAME\"" || fail "cannot create database $DB_NAME on $PG_SERVER_URL"
DB_CREATED=1
DATABASE_URL="$(SERVER_URL="$PG_SERVER_URL" DB="$DB_NAME" node -e '
  const url = new URL(process.env.SERVER_URL); url.pathname = "/" + process.env.DB; console.log(url.href);
')"

port_free() {
  node -e '
    const s = require("net").createServer();
    s.once("error", () => process.exit(1));
    s.listen(Number(process.argv[1]), "127.0.0.1", () => s.close(() => process.exit(0)));
  ' "$1"
}
PORT="${SMOKE_PORT:-3999}"
if ! port_free "$PORT"; then
  PORT="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
fi
BASE="http://127.0.0.1:$PORT"

# --- start under Node 24, in production mode -------------------------------------------
ADMIN_EMAIL="smoke-admin@example.test"
ADMIN_PASSWORD="smoke-$(node -p 'require("crypto").randomBytes(12).toString("hex")')"
say "starting dist/src/main.js on port $PORT against database $DB_NAME"
env NODE_ENV=production PORT="$PORT" DATABASE_URL="$DATABASE_URL" DATA_DIR="$WORK/data" \
  JWT_SECRET="$(node -p 'require("crypto").randomBytes(48).toString("base64url")')" \
  ADMIN_EMAIL="$ADMIN_EMAIL" ADMIN_PASSWORD="$ADMIN_PASSWORD" LOG_LEVEL=warn \
  "$NODE24_BIN" dist/src/main.js >"$LOG" 2>&1 &
SERVER_PID=$!

wait_ready "$BASE"
[[ "$ready" == *'"database":"postgres"'* ]] || fail "unexpected /health/ready answer: $ready"
say "GET /health/ready: $ready"

# --- log the bootstrap admin in --------------------------------------------------------
login_status="$(curl -sS --max-time 10 -o "$WORK/login.json" -w '%{http_code}' \
  -H 'Content-Type: application/json' \
  -d "{\"email\":\"$ADMIN_EMAIL\",\"password\":\"$ADMIN_PASSWORD\"}" "$BASE/v1/login")"
[[ "$login_status" == 201 ]] || fail "POST /v1/login answered $login_status: $(cat "$WORK/login.json")"
TOKEN="$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).data.access_token' "$WORK/login.json")"
[[ -n "$TOKEN" && "$TOKEN" != undefined ]] || fail 'POST /v1/login returned no access_token'
say 'POST /v1/login: 201 with an access token'

me="$(curl -fsS --max-time 5 -H "Authorization: Bearer $TOKEN" "$BASE/v1/users/me")" ||
  fail 'GET /v1/users/me with the access token failed'
[[ "$me" == *'"role":"admin"'* ]] || fail "GET /v1/users/me: $me"

# The server reports its own runtime: proves the answers came from Node 24.
curl -fsS --max-time 5 -o "$WORK/metrics.txt" "$BASE/metrics" || fail 'GET /metrics failed'
grep -q "^nodejs_version_info{version=\"$NODE24_VERSION\"" "$WORK/metrics.txt" ||
  fail "/metrics does not report Node $NODE24_VERSION"

say "OK: Node $NODE24_VERSION served /health/ready, /v1/login, /v1/users/me and /metrics on PostgreSQL"
