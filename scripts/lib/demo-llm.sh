# The simulated model of `scripts/run.sh --demo-llm` (sourced, not run; needs scripts/lib/common.sh and a
# built mock-provider: its classes and target/classpath.txt, written by `./mvnw package`).

# sluice_demo_llm_start LOG: starts io.sluice.mock.DemoLlmMain on a free loopback port below 32768, waits
# until it answers (20 s at most) and sets SLUICE_DEMO_LLM_PID and SLUICE_DEMO_LLM_URL (no /v1). Returns
# non-zero with a clear message when it does not start.
sluice_demo_llm_start() {
  local log="$1" cp_file=mock-provider/target/classpath.txt port _
  if [ ! -f "$cp_file" ] || [ ! -d mock-provider/target/classes ]; then
    echo "[demo-llm] the mock provider is not built (./mvnw -DskipTests package)" >&2; return 1
  fi
  port="$(sluice_free_port 20000 32000)" || return 1
  java -Xmx128m -XX:TieredStopAtLevel=1 -cp "mock-provider/target/classes:$(cat "$cp_file")" \
    io.sluice.mock.DemoLlmMain "$port" >"$log" 2>&1 &
  SLUICE_DEMO_LLM_PID=$!
  SLUICE_DEMO_LLM_URL="http://127.0.0.1:$port"
  for _ in $(seq 100); do
    if ! kill -0 "$SLUICE_DEMO_LLM_PID" 2>/dev/null; then
      echo "[demo-llm] the simulated model did not start (see $log):" >&2; tail -5 "$log" >&2; return 1
    fi
    if sluice_http_ok "$port" /_mock/counters; then
      return 0
    fi
    sleep 0.2
  done
  echo "[demo-llm] the simulated model did not answer on $SLUICE_DEMO_LLM_URL within 20 s (see $log)" >&2
  sluice_demo_llm_stop
  return 1
}

sluice_demo_llm_stop() {
  if [ -n "${SLUICE_DEMO_LLM_PID:-}" ]; then
    kill "$SLUICE_DEMO_LLM_PID" 2>/dev/null || true
    wait "$SLUICE_DEMO_LLM_PID" 2>/dev/null || true
    SLUICE_DEMO_LLM_PID=""
  fi
}

# true when GET http://127.0.0.1:$1$2 answers 200 (plain bash, no curl needed)
sluice_http_ok() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3 \
    && head -1 <&3 | grep -q ' 200 ') 2>/dev/null
}
