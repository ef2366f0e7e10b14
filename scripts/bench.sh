#!/usr/bin/env bash
# The load, chaos and benchmark harness (docs/benchmarks.md): starts the mock provider and three
# Sluice instances in external mode (PostgreSQL 17 + pgvector and Redis), runs the scenarios, checks
# the invariants and writes the report with charts. Exit 1 if an invariant broke.
#
#   scripts/bench.sh                       # full mode: every scenario 2 min; writes docs/benchmarks.md + docs/bench/*.png
#   scripts/bench.sh --short               # every scenario ≤ 20 s, surges 26 s (same report, marked short)
#   scripts/bench.sh --short --smoke       # CI smoke of the invariants: report to bench/target/bench-report/ only
#   scripts/bench.sh --scenarios surge,provider-hang
#
# Scenarios: steady surge provider-slow provider-hang 429-storm 5xx-burst redis-restart
# postgres-restart batch-online instance-kill frontdoor capacity (frontdoor and capacity are speed legs:
# full mode or by name, never in --short's default; capacity writes docs/benchmarks-capacity.md), and the
# fleet's rolling-restart and redis-failover (full mode or named; redis-failover needs SLUICE_BENCH_REDIS=sentinel).
# provider-failover (issue 16): one in-process gateway over three mock providers, 40 s, full mode or named;
# alone it writes docs/bench/provider-failover.png and docs/bench-runs/provider-failover.md only.
# Three instances by default (SLUICE_BENCH_INSTANCES=2..4).
#
# Servers: the redis-restart and postgres-restart scenarios restart them, so the harness runs its own
# where it can: with the debootstrap chroot of scripts/services-up.sh, a PostgreSQL cluster of its own
# (data /var/lib/sluice-pg-bench in the chroot, port $SLUICE_BENCH_PG_PORT) and a redis-server of its
# own (port $SLUICE_BENCH_REDIS_PORT), both stopped at the end (unset ports are picked free, below the
# ephemeral range, and each server is checked to answer before the harness starts); a
# fresh database `sluice_bench` each run. With Docker Compose it uses (and restarts) the compose
# services. SLUICE_BENCH_DB_URL / SLUICE_BENCH_REDIS_URL point it at servers you run instead
# (SLUICE_BENCH_PG_DATA then names the chroot data directory to restart). The mock and the instances
# take a block of free ports from $SLUICE_BENCH_BASE_PORT (picked free when unset): base (mock),
# base+1.. (instances), base+5.. (the instances' management ports: health, Prometheus), base+10.. (front door).
#
# Knobs: SLUICE_BENCH_SCENARIO_SECONDS (full mode, 60-180, default 120) sets each scenario's length;
# SLUICE_BENCH_JVM_OPTS adds JVM options to the Sluice instances (e.g. a flight recording).
# SLUICE_BENCH_OFFER_THRESHOLD (e.g. 1s) sets the fast-mode offer threshold of the instances, so that the
# surge makes offers and the report shows how often they are taken (not in the CI smoke; docs/chat.md).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
sluice_use_java
CACHE_DIR="${SLUICE_CACHE_DIR:-$HOME/.cache/sluice}"
ROOT="$CACHE_DIR/pg17-pgvector-root"
PG_BIN=/usr/lib/postgresql/17/bin
own_pg="" own_redis=""

stop_own() {
  if [ -n "$own_pg" ]; then
    chroot "$ROOT" su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D $own_pg -m fast stop" >/dev/null 2>&1 || true
  fi
  if [ -n "$own_redis" ]; then redis-cli -h 127.0.0.1 -p "$own_redis" shutdown nosave >/dev/null 2>&1 || true; fi
}

if [ -n "${SLUICE_BENCH_DB_URL:-}" ]; then
  export SLUICE_DB_URL="$SLUICE_BENCH_DB_URL"
  if [ -n "${SLUICE_BENCH_REDIS_URL:-}" ]; then export SLUICE_REDIS_URL="$SLUICE_BENCH_REDIS_URL"; fi
  [ -n "${SLUICE_REDIS_URL:-}" ] || eval "$(bash scripts/services-up.sh | grep SLUICE_REDIS_URL)"
else
  # services-up.sh installs what is missing (the chroot, redis-server) or finds Docker
  eval "$(env -u SLUICE_DB_URL -u SLUICE_REDIS_URL bash scripts/services-up.sh)"
  if [ -f "$CACHE_DIR/run/compose.mode" ]; then
    :  # compose services as given; bench-chaos.sh restarts them
  else
    trap stop_own EXIT
    data=/var/lib/sluice-pg-bench port="${SLUICE_BENCH_PG_PORT:-$(sluice_free_port)}"
    if [ ! -f "$ROOT$data/PG_VERSION" ]; then
      mkdir -p "$ROOT$data" && chroot "$ROOT" chown postgres:postgres "$data"
      chroot "$ROOT" su postgres -s /bin/sh -c "$PG_BIN/initdb -D $data -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >/dev/null
    fi
    own_pg="$data"
    if chroot "$ROOT" su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D $data status" >/dev/null 2>&1; then
      port="$(sed -n 4p "$ROOT$data/postmaster.pid")"   # left running by an earlier run: reuse its port
    else
      chroot "$ROOT" su postgres -s /bin/sh -c \
        "$PG_BIN/pg_ctl -D $data -l $data/server.log -w -t 60 -o '-c listen_addresses=127.0.0.1 -p $port -c max_connections=300 -c fsync=off -c synchronous_commit=off' start" >&2 \
        || { tail -20 "$ROOT$data/server.log" >&2; echo "[bench] PostgreSQL did not start on 127.0.0.1:$port" >&2; exit 2; }
    fi
    chroot "$ROOT" su postgres -s /bin/sh -c "$PG_BIN/psql -h 127.0.0.1 -p $port -U postgres -d postgres -tAc 'select 1'" 2>/dev/null | grep -q 1 \
      || { echo "[bench] PostgreSQL does not answer on 127.0.0.1:$port" >&2; exit 2; }
    chroot "$ROOT" su postgres -s /bin/sh -c "$PG_BIN/dropdb -h 127.0.0.1 -p $port -U postgres --if-exists --force sluice_bench && $PG_BIN/createdb -h 127.0.0.1 -p $port -U postgres sluice_bench && $PG_BIN/psql -h 127.0.0.1 -p $port -U postgres -d sluice_bench -qc 'create extension vector'" >&2
    export SLUICE_DB_URL="jdbc:postgresql://127.0.0.1:$port/sluice_bench?user=postgres" SLUICE_BENCH_PG_DATA="$data"
    rport="${SLUICE_BENCH_REDIS_PORT:-$(sluice_free_port)}"
    if sluice_port_in_use "$rport"; then
      echo "[bench] redis port $rport is taken: set SLUICE_BENCH_REDIS_PORT to a free one (or leave it unset)" >&2; exit 2
    fi
    own_redis="$rport"
    mkdir -p "$CACHE_DIR/run"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$rport" --save "" --appendonly no --dir "$CACHE_DIR/run" \
      --pidfile "$CACHE_DIR/run/redis-$rport.pid" --logfile "$CACHE_DIR/run/redis-$rport.log" >&2
    up=""
    for _ in $(seq 100); do redis-cli -h 127.0.0.1 -p "$rport" ping 2>/dev/null | grep -q PONG && { up=1; break; }; sleep 0.1; done
    [ -n "$up" ] || { tail -5 "$CACHE_DIR/run/redis-$rport.log" >&2; echo "[bench] redis-server did not answer on 127.0.0.1:$rport" >&2; exit 2; }
    export SLUICE_REDIS_URL="redis://127.0.0.1:$rport"
  fi
fi

# SLUICE_BENCH_REDIS=sentinel: the instances use a Sentinel set-up (1 master, 1 replica, 3 sentinels) of
# scripts/redis-topology.sh instead, for the redis-failover scenario; stopped at the end
if [ "${SLUICE_BENCH_REDIS:-single}" = sentinel ]; then
  topo_dir="$(mktemp -d /tmp/sluice-bench-sentinel.XXXXXX)"
  eval "$(bash scripts/redis-topology.sh up sentinel "$topo_dir")"
  export SLUICE_REDIS_TOPOLOGY_DIR="$topo_dir"
  trap 'stop_own; bash scripts/redis-topology.sh down "$topo_dir"' EXIT
fi

# build the app jar and the harness when missing or older than the sources (classpath.txt is written by each package)
cp_file=bench/target/classpath.txt
if [ ! -f app/target/sluice.jar ] || [ ! -f "$cp_file" ] || [ ! -f bench/target/classes/io/sluice/bench/load/LoadHarness.class ] \
   || [ -n "$(find . -path ./data -prune -o -path '*/target' -prune -o \( -name '*.java' -o -name '*.yml' -o -name '*.sql' -o -name 'pom.xml' \) -newer "$cp_file" -print -quit)" ]; then
  echo "[bench] building (./mvnw -DskipTests package)" >&2
  ./mvnw -B -q -ntp -DskipTests package
fi
# the capacity scenario runs the Portkey gateway 1.15.2 beside Sluice: installed once into the cache (never
# the repo), @hono/node-server pinned to 1.13.5 (its stock version cannot stream); skipped without npm
wants_capacity=""
case " $* " in
  *capacity*) wants_capacity=1 ;;
  *--short*|*--scenarios*) ;;
  *) wants_capacity=1 ;;
esac
if [ -n "$wants_capacity" ]; then
  export SLUICE_BENCH_PORTKEY_DIR="${SLUICE_BENCH_PORTKEY_DIR:-$CACHE_DIR/portkey}"
  if [ ! -d "$SLUICE_BENCH_PORTKEY_DIR/node_modules/@portkey-ai/gateway" ] && command -v npm >/dev/null 2>&1; then
    mkdir -p "$SLUICE_BENCH_PORTKEY_DIR"
    cat > "$SLUICE_BENCH_PORTKEY_DIR/package.json" <<'JSON'
{
  "name": "sluice-bench-portkey",
  "private": true,
  "dependencies": { "@portkey-ai/gateway": "1.15.2" },
  "overrides": { "@hono/node-server": "1.13.5" }
}
JSON
    echo "[bench] installing the Portkey gateway into $SLUICE_BENCH_PORTKEY_DIR" >&2
    (cd "$SLUICE_BENCH_PORTKEY_DIR" && npm install --no-audit --no-fund --loglevel=error >&2) \
      || echo "[bench] npm install failed: the capacity report leaves Portkey out" >&2
  fi
fi
echo "[bench] database: ${SLUICE_DB_URL%%\?*}  redis: $SLUICE_REDIS_URL" >&2
# the harness stops its children itself (shutdown hook); a TERM to this script is passed on to it
base_port="${SLUICE_BENCH_BASE_PORT:-$(sluice_free_port_block 16)}"
# the instances start with the JVM options scripts/run.sh ships (their -Xmx is the harness's own per scenario)
export SLUICE_JAVA_DEFAULTS
java -Xmx512m -cp "bench/target/classes:$(cat "$cp_file")" io.sluice.bench.load.LoadHarness --base-port "$base_port" "$@" &
harness=$!
trap 'kill -TERM $harness 2>/dev/null' TERM INT
status=0
wait $harness || status=$?
if [ "$status" -gt 128 ]; then wait $harness || status=$?; fi
exit "$status"
