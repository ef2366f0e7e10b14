#!/usr/bin/env bash
# Starts a real Redis topology on loopback from Debian's redis-server (no Docker) and prints shell
# exports for it; stops it again. Used by scripts/test.sh (the topology suites) and scripts/bench.sh.
#
#   eval "$(scripts/redis-topology.sh up cluster DIR)"    # 3 masters + 3 replicas (redis-cli --cluster create)
#   eval "$(scripts/redis-topology.sh up sentinel DIR)"   # 1 master, 1 replica, 3 sentinels (master "sluice")
#   scripts/redis-topology.sh down DIR                     # stops every server started under DIR
#   scripts/redis-topology.sh kill-master DIR              # sentinel: kill -9 the current master (failover tests)
#
# Ports are free ones below the ephemeral range (scripts/lib/common.sh). Each server's pid file is kept
# under DIR so `down` stops exactly what `up` started. Exports:
#   cluster:  SLUICE_REDIS_CLUSTER_NODES=127.0.0.1:p1,...      (spring.data.redis.cluster.nodes)
#             SLUICE_REDIS_URL=redis://127.0.0.1:p1 (a seed; with the topology set it only carries credentials)
#   sentinel: SLUICE_REDIS_SENTINEL_MASTER=sluice, SLUICE_REDIS_SENTINEL_NODES=127.0.0.1:s1,...
#             SLUICE_REDIS_SENTINEL_DATA=127.0.0.1:master,127.0.0.1:replica (for tests that watch them)
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

log() { echo "[redis-topology] $*" >&2; }
die() { echo "[redis-topology] ERROR: $*" >&2; exit 2; }

command -v redis-server >/dev/null 2>&1 || die "redis-server is not installed (apt-get install redis-server)"

wait_ping() {  # $1 port
  local i
  for i in $(seq 100); do
    redis-cli -p "$1" ping 2>/dev/null | grep -q PONG && return 0
    sleep 0.1
  done
  die "redis on port $1 did not answer"
}

start_node() {  # $1 dir, $2 port, extra args...
  local dir="$1" port="$2"; shift 2
  mkdir -p "$dir/$port"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
    --dir "$dir/$port" --pidfile "$dir/$port/pid" --logfile "$dir/$port/log" "$@" >&2
}

await_ready() {  # $1 what (for the error), then a command that succeeds once ready; tries for 15 s
  local what="$1" i; shift
  for i in $(seq 150); do
    "$@" && return 0
    sleep 0.1
  done
  die "$what within 15 s"
}

# 0 when each node that is a replica has its link to the master up and each master sees its replica online
replicas_synced() {  # ports...
  local port info
  for port in "$@"; do
    info="$(redis-cli -p "$port" info replication 2>/dev/null)"
    case "$info" in
      *role:slave*) grep -q 'master_link_status:up' <<<"$info" || return 1 ;;
      *role:master*) grep -q 'slave0:.*state=online' <<<"$info" || return 1 ;;
      *) return 1 ;;
    esac
  done
}

up_cluster() {
  local dir="$1" base i ports=() nodes=()
  base="$(sluice_free_port_block 12)"
  # the cluster bus of node i listens on base + 6 + i (not port + 10000, which may be ephemeral)
  for i in $(seq 0 5); do
    ports+=($((base + i)))
    start_node "$dir" $((base + i)) --cluster-enabled yes --cluster-config-file "$dir/$((base + i))/nodes.conf" \
      --cluster-port $((base + 6 + i)) --cluster-node-timeout 2000
  done
  for i in "${ports[@]}"; do wait_ping "$i"; nodes+=("127.0.0.1:$i"); done
  redis-cli --cluster create "${nodes[@]}" --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1 \
    || { tail -20 "$dir/create.log" >&2; die "redis-cli --cluster create failed"; }
  for i in $(seq 100); do
    redis-cli -p "${ports[0]}" cluster info 2>/dev/null | grep -q 'cluster_state:ok' && break
    sleep 0.1
  done
  redis-cli -p "${ports[0]}" cluster info | grep -q 'cluster_state:ok' || die "cluster_state is not ok"
  # and every replica has synced: Redisson waits for a replica after a lock or semaphore write (WAIT) and fails
  # the command when none has synced within a second, which the first test after start-up hit
  await_ready "the replicas did not sync" replicas_synced "${ports[@]}"
  log "cluster: 3 masters + 3 replicas on 127.0.0.1:${ports[0]}-${ports[5]} (cluster_state:ok)"
  echo "export SLUICE_REDIS_CLUSTER_NODES='$(IFS=,; echo "${nodes[*]}")'"
  # a seed node as the URL too: tools that take one URL find the topology through it (RedisTopology.ofUrl)
  echo "export SLUICE_REDIS_URL='redis://${nodes[0]}'"
}

# 0 when the replica has synced and each of the three sentinels (ports base+2..base+4) sees it up, not
# s_down or disconnected, and knows the other two sentinels
sentinel_view_ready() {  # $1 base port, $2 replica port
  local base="$1" replica="$2" s flags others
  replicas_synced "$base" "$replica" || return 1
  for s in $((base + 2)) $((base + 3)) $((base + 4)); do
    flags="$(redis-cli -p "$s" sentinel replicas sluice 2>/dev/null | grep -A1 -x 'flags' | tail -1)"
    [ "$flags" = "slave" ] || return 1
    others="$(redis-cli -p "$s" sentinel master sluice 2>/dev/null | grep -A1 -x 'num-other-sentinels' | tail -1)"
    [ "$others" = "2" ] || return 1
  done
}

up_sentinel() {
  local dir="$1" base master replica s sentinels=()
  base="$(sluice_free_port_block 5)"
  master=$base; replica=$((base + 1))
  start_node "$dir" "$master"
  wait_ping "$master"
  start_node "$dir" "$replica" --replicaof 127.0.0.1 "$master"
  wait_ping "$replica"
  for s in $((base + 2)) $((base + 3)) $((base + 4)); do
    mkdir -p "$dir/$s"
    cat >"$dir/$s/sentinel.conf" <<EOF
port $s
bind 127.0.0.1
daemonize yes
pidfile $dir/$s/pid
logfile $dir/$s/log
dir $dir/$s
sentinel monitor sluice 127.0.0.1 $master 2
sentinel down-after-milliseconds sluice 1000
sentinel failover-timeout sluice 5000
sentinel parallel-syncs sluice 1
EOF
    redis-server "$dir/$s/sentinel.conf" --sentinel >&2
    sentinels+=("127.0.0.1:$s")
  done
  for s in $((base + 2)) $((base + 3)) $((base + 4)); do wait_ping "$s"; done
  local i addr=""
  for i in $(seq 100); do
    addr="$(redis-cli -p $((base + 2)) sentinel get-master-addr-by-name sluice 2>/dev/null | tr '\n' ':')"
    [ "$addr" = "127.0.0.1:$master:" ] && break
    sleep 0.1
  done
  [ "$addr" = "127.0.0.1:$master:" ] || die "sentinels do not report the master (got '$addr')"
  # ready only when the replica has synced and every sentinel sees it up and knows the other two sentinels: a
  # client that starts before that gets a view with the replica down (the first test then ran on local shares)
  await_ready "the sentinels do not see the synced replica and each other" sentinel_view_ready "$base" "$replica"
  log "sentinel: master 127.0.0.1:$master, replica :$replica, sentinels :$((base + 2))-$((base + 4))"
  echo "export SLUICE_REDIS_SENTINEL_MASTER=sluice"
  echo "export SLUICE_REDIS_SENTINEL_NODES='$(IFS=,; echo "${sentinels[*]}")'"
  echo "export SLUICE_REDIS_SENTINEL_DATA='127.0.0.1:$master,127.0.0.1:$replica'"
  echo "export SLUICE_REDIS_URL='redis://127.0.0.1:$master'"
}

down() {
  local dir="$1" pidfile pids=() pid i
  [ -d "$dir" ] || return 0
  for pidfile in "$dir"/*/pid; do
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null && pids+=("$pid")
  done
  # wait until they are gone, so the caller may remove DIR
  for pid in "${pids[@]}"; do
    for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  log "stopped the servers under $dir"
}

kill_master() {  # kill -9 the master the sentinels currently name
  local dir="$1" sentinel port
  sentinel="$(ls "$dir" | while read -r p; do [ -f "$dir/$p/sentinel.conf" ] && echo "$p" && break; done)"
  port="$(redis-cli -p "$sentinel" sentinel get-master-addr-by-name sluice | sed -n 2p)"
  kill -9 "$(cat "$dir/$port/pid")"
  echo "$port"
}

case "${1:-}" in
  up)
    mkdir -p "${3:?directory}"
    case "${2:-}" in
      cluster) up_cluster "$3" ;;
      sentinel) up_sentinel "$3" ;;
      *) die "usage: $0 up cluster|sentinel DIR" ;;
    esac ;;
  down) down "${2:?directory}" ;;
  kill-master) kill_master "${2:?directory}" ;;
  *) die "usage: $0 up cluster|sentinel DIR | down DIR | kill-master DIR" ;;
esac
