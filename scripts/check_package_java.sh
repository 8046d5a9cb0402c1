#!/usr/bin/env bash
# Checks the Java client installs the way Maven users get it: `mvn install` of clients/java
# (main jar, sources jar, javadoc jar, each with both the generated stubs of src/gen/java and
# the hand-written code of src/main/java, a pom with what Maven Central requires), then
# `mvn verify` of clients/java/consumer-check, a project that depends on
# dev.praxis:praxis-client by its coordinates only (no overrides), compiles a worker and
# runs a test through the real transport.
#
#   scripts/check_package_java.sh            # uses ~/.m2 (warm: fast)
#   PACKAGE_CHECK_COLD=1 scripts/check_package_java.sh   # a fresh local repository:
#                                                          # the cold install time
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-q -B ${MVN_FLAGS:-})
if [ "${PACKAGE_CHECK_COLD:-}" = 1 ]; then
  repo=$(mktemp -d)
  trap 'rm -rf "$repo"' EXIT
  flags+=("-Dmaven.repo.local=$repo")
else
  repo=$HOME/.m2/repository
fi
strip() { sed -u 's/\x1b\[[0-9;]*m//g'; }
start=$(date +%s)
(cd clients/java && mvn "${flags[@]}" install -DskipTests 2>&1 | strip)
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' clients/java/pom.xml | head -n 1)
dir="$repo/dev/praxis/praxis-client/$version"
for file in "praxis-client-$version.jar" "praxis-client-$version-sources.jar" \
  "praxis-client-$version-javadoc.jar" "praxis-client-$version.pom"; do
  if [ ! -s "$dir/$file" ]; then
    echo "java package: $file missing from $dir" >&2
    exit 1
  fi
done
# The generated stubs (src/gen/java) and the hand-written layer (src/main/java) are two
# source roots: each jar must carry both.
# check_entries JAR SUFFIX: JAR holds files ending in SUFFIX under both packages.
check_entries() {
  local entries
  entries=$(jar tf "$dir/$1")
  for package in dev/praxis/aiws/engine/v1 dev/praxis/client; do
    if ! grep -q "^$package/.*$2\$" <<<"$entries"; then
      echo "java package: $1 has no $package/*$2 (a source root left out of the build?)" >&2
      exit 1
    fi
  done
}
check_entries "praxis-client-$version.jar" .class
check_entries "praxis-client-$version-sources.jar" .java
check_entries "praxis-client-$version-javadoc.jar" .html
for element in name description url licenses developers scm; do
  if ! grep -q "<$element>" "$dir/praxis-client-$version.pom"; then
    echo "java package: the pom lacks <$element>, which Maven Central requires" >&2
    exit 1
  fi
done
(cd clients/java/consumer-check && mvn "${flags[@]}" -Dpraxis.version="$version" verify 2>&1 | strip)
echo "java package: installed $version (jar, sources, javadoc, pom) and verified a consumer in $(( $(date +%s) - start ))s"
