#!/usr/bin/env bash
# Runs commands at the same time, one lane each, and fails if any of them fails.
#
#   scripts/lanes.sh NAME 'COMMAND' [NAME 'COMMAND' ...]
#
# Each lane runs `bash -c COMMAND` in a process group of its own with its output (stdout
# and stderr) in a file of its own, so lanes never interleave: a line says when each lane
# ends, and when all have ended every lane's output is printed whole, in the order given,
# between a header and a footer that give its exit code and time. Exits 0 when every lane
# exited 0, else 1 with the failed lanes named last. Ctrl-C or a TERM stops every lane.
set -uo pipefail

if [ $# -eq 0 ] || [ $(($# % 2)) -ne 0 ]; then
  echo "usage: $0 NAME 'COMMAND' [NAME 'COMMAND' ...]" >&2
  exit 2
fi

work=$(mktemp -d)
declare -a names=() pids=()
declare -A lane_of=() rc_of=() took=()

stop_lanes() {
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null; done
}
trap 'stop_lanes; rm -rf "$work"' EXIT
trap 'echo "lanes: stopped" >&2; exit 130' INT TERM

started=$(date +%s)
while [ $# -gt 0 ]; do
  name=$1 command=$2
  shift 2
  names+=("$name")
  setsid bash -c "$command" >"$work/$name.log" 2>&1 </dev/null &
  pids+=($!)
  lane_of[$!]=$name
done

running=("${pids[@]}")
while [ ${#running[@]} -gt 0 ]; do
  wait -n -p ended "${running[@]}"
  rc=$?
  name=${lane_of[$ended]}
  left=()
  for pid in "${running[@]}"; do [ "$pid" = "$ended" ] || left+=("$pid"); done
  running=("${left[@]}")
  rc_of[$name]=$rc
  took[$name]=$(($(date +%s) - started))
  echo "lanes: $name ended (exit $rc) after ${took[$name]}s" >&2
done
pids=()

failed=()
for name in "${names[@]}"; do
  echo "==== $name: output ===="
  cat "$work/$name.log"
  echo "==== $name: exit ${rc_of[$name]} after ${took[$name]}s ===="
  [ "${rc_of[$name]}" -eq 0 ] || failed+=("$name")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "lanes: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "lanes: all ${#names[@]} passed in $(($(date +%s) - started))s" >&2
