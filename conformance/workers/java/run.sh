#!/usr/bin/env bash
# The Java scenario worker (conformance/workers/README.md): compiles the client
# (clients/java, `mvn compile`) and the worker program when their sources changed, then execs
# it with the driver's arguments. Build output goes to stderr; stdout carries only events.
# The classpath is the client's own, so it holds the client's optional
# io.opentelemetry:opentelemetry-api: handlers run inside the attempt's trace.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
client="$root/clients/java"
out="$here/target"
stamp="$out/.built"
mkdir -p "$out"
if [ ! -e "$stamp" ] || [ -n "$(find "$client/src/main" "$client/src/gen" "$client/pom.xml" "$here/src" -newer "$stamp" -type f -print -quit)" ]; then
  (cd "$client" && mvn -q -B ${MVN_FLAGS:-} compile dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=runtime) >&2
  rm -rf "$out/classes"
  javac -nowarn -XDignore.symbol.file -d "$out/classes" \
    -cp "$client/target/classes:$(cat "$client/target/classpath.txt")" \
    "$here/src/dev/praxis/conformance/workers/ScenarioWorker.java" 2> >(grep -v "sun.misc" >&2 || true)
  touch "$stamp"
fi
exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$out/classes:$client/target/classes:$(cat "$client/target/classpath.txt")" \
  dev.praxis.conformance.workers.ScenarioWorker "$@"
