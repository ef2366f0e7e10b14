#!/usr/bin/env bash
# Runs Sluice on its embedded default: embedded PostgreSQL and Redis from Maven artifacts, Lucene
# on local disk, data under ./data (kept between runs). Builds first when the jar is missing or a
# source changed since the last build. Set SLUICE_DB_URL / SLUICE_REDIS_URL for external mode (see README).
#
#   scripts/run.sh [--demo-llm] [--unlock USER] [--help] [SLUICE ARGS...]   (scripts/run.sh --help says more)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh

usage() {
  cat <<'USAGE'
Usage: scripts/run.sh [--demo-llm] [--unlock USER] [--help] [SLUICE ARGS...]

Runs Sluice (embedded default unless SLUICE_DB_URL / SLUICE_REDIS_URL are set). Other arguments go to
Sluice itself (for example --sluice.x=y or --server.port=8090). JAVA_OPTS adds JVM options.

  --demo-llm     also start a SIMULATED model (the mock provider, a free loopback port below 32768) and
                 point Sluice at it, so tiers F4-F2 and degradation can be seen without an LLM account.
                 Its answers say they are simulated; it stops when Sluice stops. Change its behaviour
                 while it runs: curl -X PUT <its url>/_mock/scenario -d '{"errorRate":0.6}'
  --unlock USER  clear USER's failed-login lock of the console on this start (audited); the same as
                 SLUICE_CONSOLE_UNLOCK=USER. An admin can also unlock users on the console's Users page.
  --help         this text.
USAGE
}

demo_llm=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --demo-llm) demo_llm=1 ;;
    --unlock)
      if [ $# -lt 2 ] || [ -z "$2" ] || [ "${2#-}" != "$2" ]; then
        echo "[run] --unlock needs a console user name (scripts/run.sh --unlock admin)" >&2; exit 2
      fi
      export SLUICE_CONSOLE_UNLOCK="$2"; shift ;;
    --unlock=*) export SLUICE_CONSOLE_UNLOCK="${1#--unlock=}" ;;
    -h|--help) usage; exit 0 ;;
    *) args+=("$1") ;;
  esac
  shift
done
# dry run for scripts/tests: print what was understood and stop before building or starting anything
if [ -n "${SLUICE_RUN_DRY:-}" ]; then
  echo "demo-llm=${demo_llm:-0} unlock=${SLUICE_CONSOLE_UNLOCK:-} args=${args[*]:-}"
  exit 0
fi

sluice_use_java
jar=app/target/sluice.jar
mock_cp=mock-provider/target/classpath.txt
# The jar's own timestamp is fixed for reproducible builds (project.build.outputTimestamp), so a
# stamp written after each build tells whether a source is newer than the last build.
stamp=app/target/.sluice-built
if [ ! -f "$jar" ] || [ ! -f "$stamp" ] || { [ -n "$demo_llm" ] && [ ! -f "$mock_cp" ]; } || [ -n "$(find . -path ./data -prune -o -path '*/target' -prune -o -path ./.git -prune -o -path '*/node_modules' -prune -o \
     \( -name '*.java' -o -name '*.yml' -o -name '*.sql' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -type f -newer "$stamp" -print -quit)" ]; then
  echo "[run] building (./mvnw -DskipTests package)" >&2
  touch "$stamp.next"
  ./mvnw -B -q -ntp -DskipTests package
  mv "$stamp.next" "$stamp"
fi
# SLUICE_JAVA_DEFAULTS (scripts/lib/common.sh, docs/capacity.md): the footprint defaults. JAVA_OPTS comes after
# them, so it overrides any.
# glibc gives each thread that mallocs an arena of its own (up to 8 per core): two are enough for the ONNX
# runtime and the JVM's native allocations, and save tens of MB of resident memory
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"

# Start-up cache (JDK 25 AOT cache, JEP 483/514/515): the classes a start loads, already parsed and linked, and
# the method profiles of a training start, so the JIT starts warm. Made once per build (about as long as one
# start) from the jar extracted to plain jars (an AOT cache needs a plain class path, not the nested jar) and a
# training start on a throwaway embedded database, stopped as soon as the context is up. SLUICE_AOT=0 runs the
# nested jar without it; a cache the JVM cannot use (other JVM options) is ignored with a warning.
aot_dir=app/target/aot
run_jar="$jar"
aot_opts=""
if [ "${SLUICE_AOT:-1}" != 0 ]; then
  if [ ! -f "$aot_dir/sluice.aot" ] || [ "$stamp" -nt "$aot_dir/sluice.aot" ]; then
    echo "[run] preparing the start-up cache for this build (once; about as long as one start, log in $aot_dir/training.log)" >&2
    rm -rf "$aot_dir"
    if java -Djarmode=tools -jar "$jar" extract --destination "$aot_dir" >/dev/null 2>"$aot_dir.err"; then
      # a sealed jar (xz) makes a start with the cache fail ("sealing violation"): the seal is only a check
      for lib in "$aot_dir"/lib/*.jar; do
        if unzip -p "$lib" META-INF/MANIFEST.MF 2>/dev/null | grep -qi '^Sealed: *true'; then
          printf 'Sealed: false\n' > "$aot_dir/unseal.mf"
          jar --update --file "$lib" --manifest "$aot_dir/unseal.mf" 2>/dev/null || true
        fi
      done
      # in a process group of its own: the JVM exits at onRefresh without stopping the embedded
      # PostgreSQL and redis-server it started, so the group's leftovers are stopped after it
      ( unset SLUICE_DB_URL SLUICE_REDIS_URL SLUICE_DB_READ_URL
        export SLUICE_DATA_DIR="$aot_dir/training-data"
        exec setsid java $SLUICE_JAVA_DEFAULTS -XX:AOTCacheOutput="$aot_dir/sluice.aot" -Dspring.context.exit=onRefresh \
          -jar "$aot_dir/$(basename "$jar")" --server.port=0 --management.server.port=0 \
          --sluice.knowledge.sample.load-on-first-start=false ) >"$aot_dir/training.log" 2>&1 &
      training=$!
      trained=0
      wait "$training" && trained=1
      kill -INT -- "-$training" 2>/dev/null || true   # PostgreSQL's fast shutdown; redis-server stops on INT too
      for _ in $(seq 50); do kill -0 -- "-$training" 2>/dev/null || break; sleep 0.2; done
      kill -TERM -- "-$training" 2>/dev/null || true
      if [ "$trained" = 1 ] && [ -f "$aot_dir/sluice.aot" ]; then
        rm -rf "$aot_dir/training-data"
      else
        echo "[run] the start-up cache could not be made (see $aot_dir/training.log); starting without it" >&2
        rm -f "$aot_dir/sluice.aot"
      fi
    else
      echo "[run] could not extract $jar ($(cat "$aot_dir.err")); starting without the start-up cache" >&2
    fi
    rm -f "$aot_dir.err"
  fi
  if [ -f "$aot_dir/sluice.aot" ]; then
    run_jar="$aot_dir/$(basename "$jar")"
    aot_opts="-XX:AOTCache=$aot_dir/sluice.aot"
  fi
fi

if [ -z "$demo_llm" ]; then
  exec java $SLUICE_JAVA_DEFAULTS $aot_opts ${JAVA_OPTS:-} -jar "$run_jar" ${args[@]+"${args[@]}"}
fi

# --- --demo-llm: the simulated model beside Sluice, stopped with it ---
. scripts/lib/demo-llm.sh
mkdir -p "${SLUICE_DATA_DIR:-data}"
demo_log="${SLUICE_DATA_DIR:-data}/demo-llm.log"
trap sluice_demo_llm_stop EXIT
sluice_demo_llm_start "$demo_log" || exit 1
demo_url="$SLUICE_DEMO_LLM_URL"
cat >&2 <<EOF_DEMO
[run] ============================================================================
[run]  SIMULATED MODEL (--demo-llm): $demo_url/v1 — canned answers, no real LLM.
[run]  Answers at F4/F3/F2 come from it; see degradation by making it fail or slow:
[run]    curl -X PUT $demo_url/_mock/scenario -d '{"errorRate":0.6}'
[run]    curl -X PUT $demo_url/_mock/scenario -d '{"latencyMs":8000}'
[run]    curl -X POST $demo_url/_mock/reset      # counters; PUT '{"errorRate":0,"latencyMs":500}' heals it
[run] ============================================================================
EOF_DEMO
export SLUICE_LLM_BASE_URL="$demo_url/v1" SLUICE_LLM_API_KEY="demo-llm" SLUICE_LLM_SIMULATED=true
java $SLUICE_JAVA_DEFAULTS $aot_opts ${JAVA_OPTS:-} -jar "$run_jar" ${args[@]+"${args[@]}"} &
sluice_pid=$!
# Ctrl-C reaches both processes (same process group); a kill of this script is passed on to Sluice
trap 'kill -TERM "$sluice_pid" 2>/dev/null || true' INT TERM
status=0
while :; do
  wait "$sluice_pid" && status=0 || status=$?
  kill -0 "$sluice_pid" 2>/dev/null || break   # a trapped signal ended the wait, not Sluice: wait again
done
exit "$status"
