#!/usr/bin/env bash
# Runs every command of the guide docs/guides/testing-modules-with-the-simulator.md, so it
# cannot rot (`make guide-test`; a step of `make test`): its ```sh blocks, in order, as one
# `bash -eu -o pipefail` script, in a scratch copy of examples/complete (the guide's "your
# module"). Any failing command fails this script. Fences must be sh (run), text (output),
# terraform or hcl (configuration): a command in any other fence would escape the test.
#
# The environment stands in for what a user's CI has and this machine lacks:
#   - a release tag to `go install` from: GOPROXY first serves this work tree as the
#     module's only version (a unique prerelease, removed from the module cache afterwards);
#   - the registry: a CLI configuration that installs the locally built provider;
#   - the CLI on PATH (the cached OpenTofu by default), and $GITHUB_ENV (a scratch file, checked).
#
#   scripts/guide-test.sh [CLI...]    # default: the cached OpenTofu
#
# The guide's commands say `tofu`; it tells Terraform users that `terraform` does the same
# (Terraform 1.6+). With a Terraform binary, each `tofu` command of the guide runs as
# `terraform`, in a fresh copy of the module, so both CLIs keep the guide honest.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

guide=docs/guides/testing-modules-with-the-simulator.md
module=github.com/astra-control/terraform-provider-astra
[ -f "$guide" ] || die "$guide is missing: run 'make generate'"
[ $# -gt 0 ] || set -- "$(install_cli tofu)"

work="$(mktemp -d "${TMPDIR:-/tmp}/astra-guide.XXXXXX")"
version="v0.0.0-guide.$(date +%s).$$"
modcache="$(go env GOMODCACHE)"
guide_pid=""
cleanup() {
  # The guide's background simulators belong to its process group.
  if [ -n "$guide_pid" ]; then kill -- "-$guide_pid" 2>/dev/null || true; fi
  chmod -R u+w "$modcache/$module@$version" 2>/dev/null || true
  rm -rf "$modcache/$module@$version" "$modcache/cache/download/$module/@v/$version".* "$modcache/cache/download/$module/@v/list" "$work"
}
trap cleanup EXIT

step "the guide's commands ($guide)"
# Fenced blocks: sh ones become the script; any other kind of fence is refused.
awk -v guide="$guide" '
  /^[ \t]*```/ {
    if (!infence) {
      lang = $0; sub(/^[ \t]*```/, "", lang)
      if (lang !~ /^(sh|text|terraform|hcl)$/) { printf "%s:%d: fence \"%s\": use sh for commands (run by this test), text for output\n", guide, NR, lang > "/dev/stderr"; bad = 1; exit }
      infence = 1; run = (lang == "sh"); if (run) { blocks++; printf "# %s:%d\n", guide, NR }
    } else { infence = 0 }
    next
  }
  infence && run { print }
  END { if (bad) exit 3; if (blocks < 1) { print "no sh blocks" > "/dev/stderr"; exit 4 } }
' "$guide" >"$work/guide.sh" || die "cannot extract the guide's commands"
echo "$(grep -c '^# docs/' "$work/guide.sh") sh blocks, $(grep -vc -e '^#' -e '^$' "$work/guide.sh") lines"

step "stand-ins: module proxy serving this tree as $version, provider mirror, PATH"
stage="$work/zip/$module@$version"
mkdir -p "$stage" "$work/goproxy/$module/@v" "$work/bin" "$work/cli"
git ls-files -co --exclude-standard -z | while IFS= read -r -d '' f; do
  [ -f "$f" ] && mkdir -p "$stage/$(dirname "$f")" && cp "$f" "$stage/$f"
done
(cd "$work/zip" && zip -qrD "$work/goproxy/$module/@v/$version.zip" .)
cp go.mod "$work/goproxy/$module/@v/$version.mod"
printf '{"Version":"%s","Time":"%s"}\n' "$version" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$work/goproxy/$module/@v/$version.info"
echo "$version" >"$work/goproxy/$module/@v/list"
local_provider_mirror "$work/provider"

for cli in "$@"; do
  name=tofu
  case "$(cli_version "$cli")" in "Terraform "*) name=terraform ;; esac
  step "run them in a copy of examples/complete, with $(cli_version "$cli") as \`$name\`"
  rm -rf "$work/module" "$work/cli" && mkdir -p "$work/module" "$work/cli" && cp -R examples/complete/. "$work/module/"
  ln -s "$cli" "$work/cli/$name"
  : >"$work/github.env"
  # The guide's commands name tofu; Terraform runs the same ones as terraform.
  sed -E "s/(^|[^[:alnum:]_-])tofu /\\1$name /g" "$work/guide.sh" >"$work/guide-$name.sh"
  (
    cd "$work/module"
    export PATH="$work/bin:$work/cli:$PATH" GOBIN="$work/bin" GITHUB_ENV="$work/github.env"
    export GOPROXY="file://$work/goproxy,$(go env GOPROXY)" GONOSUMDB="$module"
    export TF_IN_AUTOMATION=1
    exec setsid -w bash -eux -o pipefail "$work/guide-$name.sh"
  ) &
  guide_pid=$!
  rc=0
  wait "$guide_pid" || rc=$?
  [ "$rc" -eq 0 ] || die "a command of the guide failed under $(cli_version "$cli") (exit $rc): see above; fix $guide's template"
  guide_pid=""
  grep -q '^ASTRA_ENDPOINT=http' "$work/github.env" || die "the guide's \$GITHUB_ENV step wrote no ASTRA_ENDPOINT"
  [ ! -e "$work/module/astra-sim.env" ] || die "a simulator of the guide was left running (its ready file remains)"
done
[ -x "$work/bin/astra-sim" ] || die "the guide's go install did not install astra-sim"
# The flags the guide's tables name are the simulator's.
"$work/bin/astra-sim" -help >"$work/help.txt"
for flag in $(grep -oE '^\| `-[a-z-]+' "$guide" | sed 's/^| `//') $(grep -oE '^\| `-[a-z-]+`, `-[a-z-]+' "$guide" | sed 's/.*, `//'); do
  grep -qE "^  $flag( |\$)" "$work/help.txt" || die "the guide names $flag, which astra-sim -help does not list"
done
echo "every command of the guide ran ($# CLIs)"

# The adoption guide's commands too (its own scratch copy, simulator and fleet), under the
# first CLI given.
scripts/adopt-guide-test.sh "$1"
