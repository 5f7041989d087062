#!/usr/bin/env bash
# compose.yaml's topology without containers (issue 23 point 5), and checks made through its proxy:
# the machine's PostgreSQL and Redis, two compiled app processes (node dist/main.js), and Debian's
# Caddy (apt-get install caddy) with deploy/Caddyfile, TLS from Caddy's own local CA (`tls internal`).
#
#   deploy/local-topology.sh            # DATABASE_URL and REDIS_URL name the servers to use
#
# Checked through Caddy, over https verified against Caddy's root certificate:
#   1. TLS with a certificate from Caddy's local CA; plain http redirected to https;
#   2. /api/health/ready answers 200 through the proxy;
#   3. a sign-in, and a WebSocket upgraded through the proxy that subscribes to its topic;
#   4. both processes serve (each one's own request count, from its /metrics);
#   5. with one process stopped, every request still succeeds and a new WebSocket connects;
#      started again, it is sent traffic again once Caddy's health check sees it ready.
# It creates a database, a Redis key prefix and a temporary folder of its own, and removes them.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
SERVER_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
REDIS="${REDIS_URL:-redis://127.0.0.1:6379}"
for tool in caddy psql node curl openssl; do
  command -v "$tool" >/dev/null || { echo "local-topology: $tool is needed (caddy: apt-get install caddy)" >&2; exit 2; }
done

RUN_ID="$(openssl rand -hex 4)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/rideway-topology-XXXXXX")"
# Inside the server's folder, so the compiled bundle finds node_modules as dist/ does.
BUILD="$REPO/apps/server/test-results/topology-$RUN_ID"
DB="rideway_topology_$RUN_ID"
DB_URL="${SERVER_URL%/*}/$DB"
PREFIX="rideway-topology-$RUN_ID"
PIDS=()
FAILED=0

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
say() { printf '%s\n' "$*"; }
check() { # check <label> <condition command...>
  local label="$1"; shift
  if "$@"; then say "  ok    $label"; else say "  FAIL  $label"; FAILED=$((FAILED + 1)); fi
}

cleanup() {
  local status=$?
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$FAILED" -gt 0 ] || [ "$status" -ne 0 ]; then
    for log in "$WORK"/*.log; do [ -f "$log" ] && { say "--- last lines of $(basename "$log")"; tail -n 15 "$log"; }; done
  fi
  psql -q "$SERVER_URL" -c "drop database if exists $DB with (force)" >/dev/null 2>&1 || true
  if command -v redis-cli >/dev/null; then
    redis-cli -u "$REDIS" --scan --pattern "$PREFIX*" | xargs -r redis-cli -u "$REDIS" del >/dev/null || true
  fi
  rm -rf "$BUILD"
  if [ -n "${KEEP:-}" ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

say "== building the server into $BUILD"
(cd "$REPO/apps/server" && node build.mjs "$BUILD")
[ -f "$REPO/apps/web/dist/index.html" ] || say "   (apps/web/dist is not built: / shows the status page; the checks do not need the web app)"

psql -q "$SERVER_URL" -c "create database $DB" >/dev/null
APP_PORTS=("$(free_port)" "$(free_port)")
HTTP_PORT="$(free_port)"; HTTPS_PORT="$(free_port)"; ADMIN_PORT="$(free_port)"
# Shared by both processes, as compose's env file is; made for this run only.
PAYMENT_SECRET="$(openssl rand -hex 32)"; TWO_FACTOR_KEY="$(openssl rand -hex 32)"; METRICS_TOKEN="$(openssl rand -hex 32)"
mkdir -p "$WORK/data"
APP_PIDS=(0 0)

start_app() { # start_app <index>
  local index="$1"
  (cd "$REPO/apps/server" && exec env DATABASE_URL="$DB_URL" REDIS_URL="$REDIS" REDIS_PREFIX="$PREFIX" \
    PAYMENT_SECRET="$PAYMENT_SECRET" TWO_FACTOR_KEY="$TWO_FACTOR_KEY" METRICS_TOKEN="$METRICS_TOKEN" \
    HOST=127.0.0.1 PORT="${APP_PORTS[$index]}" TRUST_PROXY=1 DATA_DIR="$WORK/data" DEMO_DATA=1 \
    PUBLIC_URL="https://localhost:$HTTPS_PORT" LOG_LEVEL=info \
    node --enable-source-maps "$BUILD/main.js") >>"$WORK/app$((index + 1)).log" 2>&1 &
  APP_PIDS[index]=$!
  PIDS+=("$!")
  for _ in $(seq 1 600); do
    curl -fsS -o /dev/null "http://127.0.0.1:${APP_PORTS[$index]}/api/health/ready" 2>/dev/null && return 0
    kill -0 "${APP_PIDS[$index]}" 2>/dev/null || { say "app$((index + 1)) exited"; return 1; }
    sleep 0.2
  done
  say "app$((index + 1)) was not ready in 120 s"; return 1
}

say "== app1 on 127.0.0.1:${APP_PORTS[0]} (first: it migrates and seeds the demo data), then app2 on 127.0.0.1:${APP_PORTS[1]}"
start_app 0
start_app 1

say "== caddy: https://localhost:$HTTPS_PORT (http $HTTP_PORT, admin 127.0.0.1:$ADMIN_PORT)"
mkdir -p "$WORK/caddy"
XDG_DATA_HOME="$WORK/caddy/data" XDG_CONFIG_HOME="$WORK/caddy/config" \
  RIDEWAY_DOMAIN=localhost RIDEWAY_TLS=internal \
  RIDEWAY_UPSTREAM_1="127.0.0.1:${APP_PORTS[0]}" RIDEWAY_UPSTREAM_2="127.0.0.1:${APP_PORTS[1]}" \
  RIDEWAY_HTTP_PORT="$HTTP_PORT" RIDEWAY_HTTPS_PORT="$HTTPS_PORT" CADDY_ADMIN="127.0.0.1:$ADMIN_PORT" \
  caddy run --config "$REPO/deploy/Caddyfile" --adapter caddyfile >"$WORK/caddy.log" 2>&1 &
PIDS+=("$!")
CA="$WORK/caddy/data/caddy/pki/authorities/local/root.crt"
BASE="https://localhost:$HTTPS_PORT"
for _ in $(seq 1 150); do
  [ -f "$CA" ] && curl -fsS --cacert "$CA" -o /dev/null "$BASE/api/health/ready" 2>/dev/null && break
  sleep 0.2
done

https() { curl -sS --cacert "$CA" "$@"; }
status_of() { https -o /dev/null -w '%{http_code}' "$@"; }
json_field() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const v=JSON.parse(s)$1;console.log(typeof v==='string'?v:JSON.stringify(v))})"; }
# GET /api/cartypes requests one process has answered, from its own /metrics.
served_by() {
  curl -sS -H "authorization: Bearer $METRICS_TOKEN" "http://127.0.0.1:${APP_PORTS[$1]}/metrics" |
    awk '/^rideway_http_requests_total\{method="GET",route="\/api\/cartypes",status_code="200"\}/ { print $2; found=1 } END { if (!found) print 0 }'
}
# A WebSocket through the proxy, TLS verified against Caddy's CA: upgraded, then subscribed; with
# HOLD=<seconds> it stays open that long.
websocket() {
  (cd "$REPO/apps/server" && HOLD="${HOLD:-0}" CA="$CA" URL="wss://localhost:$HTTPS_PORT/api/ws" TOKEN="$1" exec node --input-type=module -e '
    import { readFileSync } from "node:fs";
    import WebSocket from "ws";
    const socket = new WebSocket(process.env.URL, { ca: readFileSync(process.env.CA), headers: { authorization: `Bearer ${process.env.TOKEN}` } });
    let upgrade = 0;
    socket.on("upgrade", (response) => { upgrade = response.statusCode; });
    socket.on("open", () => socket.send(JSON.stringify({ type: "subscribe", topic: "user:me" })));
    socket.on("message", (data) => {
      const message = JSON.parse(String(data));
      if (message.type === "subscribed") {
        console.log(`${upgrade} ${message.type} ${message.topic}`);
        clearTimeout(timer);
        setTimeout(() => process.exit(0), Number(process.env.HOLD ?? 0) * 1000);
      }
    });
    socket.on("error", (error) => { console.log(`error ${error.message}`); process.exit(1); });
    const timer = setTimeout(() => { console.log("timeout"); process.exit(1); }, 10000);
  ')
}

say "== 1. TLS and the redirect"
VERIFY="$(https -o /dev/null -w '%{http_code} %{ssl_verify_result}' "$BASE/api/health/live")"
ISSUER="$(https -v -o /dev/null "$BASE/api/health/live" 2>&1 | sed -n 's/^\*  issuer: //p' | head -n 1)"
say "   certificate issuer: $ISSUER"
check "https verified against Caddy's local CA ($VERIFY)" test "$VERIFY" = "200 0"
REDIRECT="$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' "http://localhost:$HTTP_PORT/api/health/live")"
# (Caddy 2.6 leaves a non-standard https_port out of the redirect; on 80 and 443 it is the site.)
check "http redirects to https ($REDIRECT)" grep -Eq '^308 https://localhost(:[0-9]+)?/api/health/live$' <<<"$REDIRECT"

say "== 2. readiness through the proxy"
READY="$(https "$BASE/api/health/ready")"
say "   $READY"
check "/api/health/ready 200 ok" test "$(status_of "$BASE/api/health/ready")" = 200

say "== 3. a sign-in and a WebSocket through the proxy"
TOKEN="$(https -H 'content-type: application/json' -d '{"email":"rider1@rideway.demo","password":"demo123"}' "$BASE/api/auth/login" | json_field .token || true)"
check "rider1 signs in (a session token)" test -n "$TOKEN"
WS="$(websocket "$TOKEN" || true)"
check "WebSocket: $WS" test "$WS" = "101 subscribed user:me"

say "== 4. both processes serve"
for _ in $(seq 1 40); do status_of "$BASE/api/cartypes" >/dev/null; done
SERVED=("$(served_by 0)" "$(served_by 1)")
say "   GET /api/cartypes answered by app1: ${SERVED[0]}, app2: ${SERVED[1]} (of 40, least_conn)"
check "each process answered some" test "${SERVED[0]}" -gt 0 -a "${SERVED[1]}" -gt 0
say "   caddy's upstreams: $(curl -sS "http://127.0.0.1:$ADMIN_PORT/reverse_proxy/upstreams" | tr -d '\n ')"
# An open WebSocket is a request in progress to its process for as long as it lasts: least_conn
# counts it, so new connections go to the other process.
HOLD=5 websocket "$TOKEN" >"$WORK/held-socket.out" 2>&1 &
HELD=$!
for _ in $(seq 1 50); do grep -q subscribed "$WORK/held-socket.out" && break; sleep 0.2; done
UPSTREAMS="$(curl -sS "http://127.0.0.1:$ADMIN_PORT/reverse_proxy/upstreams" | tr -d '\n ')"
say "   with one WebSocket held open: $UPSTREAMS"
check "caddy counts the open WebSocket against its process" grep -q '"num_requests":1' <<<"$UPSTREAMS"
wait "$HELD" || true

say "== 5. app1 stopped (SIGTERM): the proxy sends everything to app2"
BEFORE="$(served_by 1)"
kill -TERM "${APP_PIDS[0]}"; wait "${APP_PIDS[0]}" || true
CODES="$(for _ in $(seq 1 20); do status_of "$BASE/api/cartypes"; printf ' '; done)"
check "20 requests right after the stop all answer 200 ($CODES)" test -z "$(tr ' ' '\n' <<<"$CODES" | grep -v -e '^200$' -e '^$' || true)"
check "app2 answered all 20 ($(( $(served_by 1) - BEFORE )))" test "$(( $(served_by 1) - BEFORE ))" -eq 20
TOKEN2="$(https -H 'content-type: application/json' -d '{"email":"rider2@rideway.demo","password":"demo123"}' "$BASE/api/auth/login" | json_field .token || true)"
check "a sign-in while app1 is down" test -n "$TOKEN2"
WS2="$(websocket "$TOKEN2" || true)"
check "a new WebSocket while app1 is down: $WS2" test "$WS2" = "101 subscribed user:me"

say "== 6. app1 started again: sent traffic once Caddy's health check (every 5 s) sees it ready"
start_app 0
SENT=0
for _ in $(seq 1 30); do
  for _ in $(seq 1 10); do status_of "$BASE/api/cartypes" >/dev/null; done
  SENT=$((SENT + 10))
  [ "$(served_by 0)" -gt 0 ] && break
  sleep 1
done
check "app1 answers again ($(served_by 0) of the last $SENT)" test "$(served_by 0)" -gt 0

if [ "$FAILED" -gt 0 ]; then say "== $FAILED check(s) failed"; exit 1; fi
say "== every check passed"
