#!/usr/bin/env bash
# The Redis-facing tests (permits, token budget, retry/rate limits, admission order, user buckets, semantic
# cache, degradation level) again against a real 3-master + 3-replica Redis Cluster and a Sentinel set-up
# (1 master, 1 replica, 3 sentinels), started here from Debian's redis-server and stopped at the end; on
# Sentinel, SentinelFailoverTest then kills the master under load. scripts/test.sh runs this after a full
# run (SLUICE_REDIS_TOPOLOGIES=0 skips it); run it alone as `scripts/test-redis-topologies.sh [cluster|sentinel]`.
# These tests touch Redis (and the ONNX model) only, no database.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
sluice_use_java

TESTS='PermitLeaseAcceptanceTest,PermitTakeCompatibilityTest,PermitRenewalTest,LostAcquireReplyTest,RateLimitAcceptanceTest,TokenBudgetAcceptanceTest#twoInstancesSpendNoMoreThanTheClusterBudgetInAnyWindow+withRedisStoppedEachInstanceKeepsToItsShareAndCallsStillFlow,DegradationControlTest,ClusterAdmissionOrderTest,UserTokenBucketTest,UserLimitsTest,RedisSemanticCacheTest,NearHitsTest,ClusterGlobalRateTest'
topologies=(cluster sentinel)
[ $# -eq 0 ] || topologies=("$@")

run_on() {  # $1 cluster|sentinel
  local dir rc=0
  dir="$(mktemp -d /tmp/sluice-redis-$1.XXXXXX)"
  trap "bash scripts/redis-topology.sh down '$dir'; rm -rf '$dir' || true; trap - RETURN" RETURN
  local exports; exports="$(bash scripts/redis-topology.sh up "$1" "$dir")"
  local tests="$TESTS"
  # the failover test kills the master, so it runs last, on its own
  (
    eval "$exports"
    export SLUICE_REDIS_TOPOLOGY_DIR="$dir"
    echo "[test-topologies] $1: $tests" >&2
    # (errexit is off in a subshell tested with ||: every step says so itself)
    ./mvnw -B -ntp -q -pl governance,platform-api -am test -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false || exit $?
    if [ "$1" = sentinel ]; then
      ./mvnw -B -ntp -q -pl governance -am test -Dtest=SentinelFailoverTest -Dsurefire.failIfNoSpecifiedTests=false || exit $?
      cat governance/target/redis-failover.txt >&2
    fi
  ) || rc=$?
  return $rc
}

for t in "${topologies[@]}"; do
  case "$t" in
    cluster|sentinel) run_on "$t" ;;
    *) echo "usage: $0 [cluster|sentinel]..." >&2; exit 2 ;;
  esac
done
echo "[test-topologies] passed on: ${topologies[*]}" >&2
