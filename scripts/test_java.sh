#!/usr/bin/env bash
# Builds and tests the Java client (clients/java) from its committed sources, generated
# code included: no protoc needed. Maven fetches the pinned dependencies from Maven Central
# on the first run and then reuses ~/.m2; set MVN_FLAGS=-o to stay offline.
# Ends with "java: N passed, N failed" counted from the Surefire reports.
set -euo pipefail
cd "$(dirname "$0")/../clients/java"
rm -rf target/surefire-reports
# Maven 3.8 as packaged by Debian prints bare colour resets even with -q -B; strip them so
# the summary line stands alone.
set +e
# shellcheck disable=SC2086
mvn -q -B ${MVN_FLAGS:-} test 2>&1 | sed -u 's/\x1b\[[0-9;]*m//g'
rc=${PIPESTATUS[0]}
set -e
total=0 failed=0 skipped=0
for report in target/surefire-reports/TEST-*.xml; do
  [ -e "$report" ] || continue
  header=$(grep -o '<testsuite [^>]*>' "$report")
  attr() { echo "$header" | grep -o " $1=\"[0-9]*\"" | grep -o '[0-9]*'; }
  total=$((total + $(attr tests)))
  failed=$((failed + $(attr failures) + $(attr errors)))
  skipped=$((skipped + $(attr skipped)))
done
passed=$((total - failed - skipped))
echo "java: $passed passed, $failed failed, $skipped skipped"
if [ "$rc" -eq 0 ] && [ "$total" -eq 0 ]; then
  echo "java: no test ran" >&2
  exit 1
fi
exit "$rc"
