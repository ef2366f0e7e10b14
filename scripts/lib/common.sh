# Shared by the scripts in scripts/ (sourced, not run): the JDK Sluice is built for, and free ports.

# Sluice is built and run on Java 25 (virtual threads without pinning on synchronized, JEP 491).
# Uses JAVA_HOME when it is a 25+, else the first JDK 25+ under /usr/lib/jvm, else `java` on the
# PATH when it is 25+; exports JAVA_HOME and puts its bin first on the PATH (./mvnw reads JAVA_HOME).
SLUICE_JAVA_FEATURE=25

sluice_java_feature() {  # prints the feature version of the java binary $1 (17, 21, 25, ...)
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -1
}

sluice_use_java() {
  local candidate home found=""
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-2[5-9]* /usr/lib/jvm/*-2[5-9]* /usr/lib/jvm/*; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    local v; v="$(sluice_java_feature "$candidate/bin/java")"
    if [ -n "$v" ] && [ "$v" -ge "$SLUICE_JAVA_FEATURE" ]; then found="$candidate"; break; fi
  done
  if [ -z "$found" ] && command -v javac >/dev/null 2>&1; then
    home="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
    local v; v="$(sluice_java_feature "$home/bin/java")"
    if [ -n "$v" ] && [ "$v" -ge "$SLUICE_JAVA_FEATURE" ]; then found="$home"; fi
  fi
  if [ -z "$found" ]; then
    echo "Sluice needs a JDK $SLUICE_JAVA_FEATURE or newer: set JAVA_HOME to one (for example" \
      "/usr/lib/jvm/temurin-25-jdk-amd64, or install Temurin 25 from https://adoptium.net)" >&2
    return 2
  fi
  export JAVA_HOME="$found"
  export PATH="$JAVA_HOME/bin:$PATH"
}

# The JVM options Sluice runs with: one file, shared with the container image (Dockerfile).
. "$(dirname "${BASH_SOURCE[0]}")/java-defaults.sh"

# A TCP port on 127.0.0.1 that nothing listens on, below the kernel's ephemeral range (net.ipv4.ip_local_port_range), so
# an outgoing connection cannot be holding it. Random within [low, high) to keep parallel runs apart.
sluice_free_port() {
  local low="${1:-20000}" high="${2:-32000}" port _
  for _ in $(seq 200); do
    port=$(( low + RANDOM % (high - low) ))
    if ! sluice_port_in_use "$port"; then echo "$port"; return 0; fi
  done
  echo "no free port found in $low-$high" >&2
  return 1
}

sluice_port_in_use() {  # true when something accepts connections or is bound on 127.0.0.1:$1
  if command -v ss >/dev/null 2>&1; then
    ss -Htan "( sport = :$1 )" 2>/dev/null | grep -q . && return 0
  fi
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# The first of $1 consecutive free ports (same range and rules as sluice_free_port).
sluice_free_port_block() {
  local count="$1" low="${2:-20000}" high="${3:-32000}" base i _ taken
  for _ in $(seq 200); do
    base=$(( low + RANDOM % (high - low - count) )); taken=""
    for i in $(seq 0 $((count - 1))); do
      if sluice_port_in_use $((base + i)); then taken=1; break; fi
    done
    if [ -z "$taken" ]; then echo "$base"; return 0; fi
  done
  echo "no $count free consecutive ports found in $low-$high" >&2
  return 1
}
