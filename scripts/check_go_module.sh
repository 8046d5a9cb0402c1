#!/usr/bin/env bash
# Checks that the Go client resolves as a module the way `go get` would fetch it, with no
# replace directive: packs clients/go in the module zip layout into a local module proxy
# directory (GOPROXY=file://...), then builds and vets a scratch consumer that requires it.
# Its dependencies still come from the Go module proxy (pinned by clients/go/go.sum).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
module=github.com/praxis-engine/praxis/clients/go
version=v0.0.0-ci
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. The proxy: <module>/@v/{list,<v>.info,<v>.mod,<v>.zip}. The zip holds the module's
#    committed files under <module>@<version>/, as the go command expects.
proxy="$work/proxy/$module/@v"
mkdir -p "$proxy"
echo "$version" > "$proxy/list"
printf '{"Version":"%s","Time":"2026-01-01T00:00:00Z"}\n' "$version" > "$proxy/$version.info"
cp "$root/clients/go/go.mod" "$proxy/$version.mod"
(cd "$root" && git ls-files -co --exclude-standard clients/go) | python3 -c '
import sys, zipfile
root, prefix, out = sys.argv[1], sys.argv[2], sys.argv[3]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for path in sorted(line.strip() for line in sys.stdin if line.strip()):
        z.write(f"{root}/{path}", prefix + path[len("clients/go/"):])
' "$root" "$module@$version/" "$proxy/$version.zip"

# 2. The consumer: requires the module by version, no replace.
consumer="$work/consumer"
mkdir -p "$consumer"
cat > "$consumer/go.mod" <<MOD
module example.com/consumer

go 1.22

require $module $version
MOD
cat > "$consumer/main.go" <<'GO'
// Command consumer type-checks a worker and the helpers against the packed module.
package main

import (
	"context"
	"fmt"

	enginev1 "github.com/praxis-engine/praxis/clients/go/aiws/engine/v1"
	"github.com/praxis-engine/praxis/clients/go/praxis"
)

func handle(ctx context.Context, task *praxis.Task) (praxis.Outcome, error) {
	return praxis.Applied(map[string]string{"node": task.GetNodeUid()}).WithCost("1.5"), nil
}

func main() {
	clients, err := praxis.Connect("127.0.0.1:1", "")
	if err != nil {
		panic(err)
	}
	defer clients.Close()
	w := praxis.NewWorker(clients, praxis.WorkerOptions{Models: []string{"echo"}}, handle)
	var _ enginev1.TaskServiceClient = clients.Tasks
	text, _ := praxis.ToJSON(map[string]int{"b": 1, "a": 2})
	fmt.Println(w.ID() != "", text)
}
GO
if grep -q replace "$consumer/go.mod"; then echo "consumer go.mod has a replace directive" >&2; exit 1; fi
cd "$consumer"
start=$(date +%s%N)
export GOPROXY="file://$work/proxy,https://proxy.golang.org" GONOSUMDB="$module" \
  GOFLAGS=-mod=mod GOTOOLCHAIN=local
go mod tidy
go vet ./...
out="$(go run .)"
[ "$out" = 'true {"a":2,"b":1}' ] || { echo "consumer printed: $out" >&2; exit 1; }
seconds=$(( ($(date +%s%N) - start) / 1000000000 ))
echo "check_go_module: a consumer without replace builds against $module@$version" \
  "($(grep '^go ' "$root/clients/go/go.mod")); consumer resolve+build+run ${seconds}s"
