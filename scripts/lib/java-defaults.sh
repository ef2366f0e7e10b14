# shellcheck shell=sh
# Sourced (POSIX sh) by scripts/lib/common.sh and by the container image's entry point (Dockerfile).
# The JVM options Sluice runs with (docs/capacity.md "Footprint defaults"): scripts/run.sh and the container image
# start with them before JAVA_OPTS, and the benchmark harness starts its instances with them, so the figures are those
# of what runs.
# A heap bounded at 1 GB that starts small, gives idle memory back after a minute of idling (not after a lull between
# bursts: shrunk, it met the next burst with a small young generation and long mixed pauses) and grows under load
# rather than collect more often (GCTimeRatio: G1 aims at at most 0.5 % of the time in GC, not 8 %: a thousand calls in
# flight are all copied at each young pause, so fewer pauses delay fewer calls) and marks only when the old generation
# fills 70 % of it (the shrink at each remark would otherwise start the next cycle at once), compact object headers, a
# smaller code cache.
SLUICE_JAVA_DEFAULTS="-Xms64m -Xmx1g -XX:+UseCompactObjectHeaders -XX:GCTimeRatio=199 -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=70 -XX:G1PeriodicGCInterval=60000 -XX:MaxHeapFreeRatio=30 -XX:MinHeapFreeRatio=10 -XX:ReservedCodeCacheSize=128m -XX:TrimNativeHeapInterval=30000"
