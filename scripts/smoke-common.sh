# Sourced by the Node 24 smoke scripts, which define `say` and `fail` first.

# NODE24_BIN (the npm package node@24 through npx, unless given) and NODE24_VERSION.
if [[ -z "${NODE24_BIN:-}" ]]; then
  NODE24_BIN="$(npx -y node@24 -p process.execPath 2>/dev/null | tail -n 1)" ||
    fail 'could not get Node 24 (npx -y node@24)'
fi
NODE24_VERSION="$("$NODE24_BIN" --version)" || fail "cannot run $NODE24_BIN"
[[ "$NODE24_VERSION" == v24.* ]] || fail "$NODE24_BIN is $NODE24_VERSION, not Node 24"
say "using Node $NODE24_VERSION ($NODE24_BIN)"

# Waits up to 60 s for GET $1/health/ready to answer 200 while SERVER_PID lives; sets
# `ready` to the answer.
wait_ready() {
  ready=""
  for _ in $(seq 1 120); do
    kill -0 "$SERVER_PID" 2>/dev/null || fail 'the server exited during start-up'
    ready="$(curl -fsS --max-time 2 "$1/health/ready" 2>/dev/null)" && return 0
    ready=""
    sleep 0.5
  done
  fail "GET /health/ready did not answer 200 within 60 s"
}
