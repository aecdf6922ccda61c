#!/usr/bin/env bash
# Runs NetApp's own client, actoolkit (with its astraSDK), unmodified, against astra-sim:
# the day-one and day-two commands a user of Astra Control runs, each checked for its exit
# status and output (issue 43), then replication between two managed clusters (create,
# failover, resync, reverse, destroy) and identity and access (local and LDAP users, LDAP
# groups, constrained role bindings, the LDAP setting). Opt-in (`make toolkit-check`), never part of `make test`:
# the toolkit cannot be committed here nor downloaded in CI, so point ACTOOLKIT_SRC at a
# checkout of github.com/NetApp/netapp-astra-toolkits (the directory with toolkit.py).
#
#   ACTOOLKIT_SRC=/path/to/netapp-astra-toolkits scripts/toolkit-check.sh
#
# PYTHON (default python3, else /usr/bin/python3) must import requests, yaml, kubernetes, tabulate and jinja2
# (Debian: python3-requests python3-yaml python3-kubernetes python3-tabulate python3-jinja2).
# ASTRA_SIM names an astra-sim binary to test instead of building this tree's;
# ASTRA_SIM_FLAGS adds flags (e.g. -in-flight-ready, -unmanage-deletes-backups, -put-returns-body). The toolkit's
# config.yaml, the simulator's certificate and every output go to a temporary directory
# (KEEP=1 keeps it); the toolkit is pointed at the simulator's self-signed certificate
# (verifySSL stays on: REQUESTS_CA_BUNDLE). Exit status 0 when every command behaves.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

src="${ACTOOLKIT_SRC:-}"
[ -n "$src" ] || die "set ACTOOLKIT_SRC to a checkout of github.com/NetApp/netapp-astra-toolkits (the directory holding toolkit.py)"
[ -f "$src/toolkit.py" ] || die "ACTOOLKIT_SRC=$src has no toolkit.py: point it at the toolkit's top directory"
src="$(cd "$src" && pwd)"
# The first python3 on PATH may be another installation (pyenv) than Debian's, whose
# packages the check needs: take Debian's when the first cannot import them.
py="${PYTHON:-python3}"
if [ -z "${PYTHON:-}" ] && ! "$py" -c 'import requests, yaml, kubernetes, tabulate, jinja2' 2>/dev/null; then
  py=/usr/bin/python3
fi
"$py" -c 'import requests, yaml, kubernetes, tabulate, jinja2' 2>/dev/null ||
  die "$py cannot import requests, yaml, kubernetes, tabulate and jinja2 (Debian: apt-get install python3-requests python3-yaml python3-kubernetes python3-tabulate python3-jinja2)"

work="$(mktemp -d)"
sim_pid=""
cleanup() {
  [ -z "$sim_pid" ] || { kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; }
  if [ "${KEEP:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

sim="${ASTRA_SIM:-}"
if [ -z "$sim" ]; then
  step "building astra-sim"
  go build -o "$work/astra-sim" ./internal/cmd/astra-sim
  sim="$work/astra-sim"
fi

step "starting astra-sim (TLS, with delays so the toolkit's waits poll)"
# A backup is pending for its first half (20s), then running: long enough to see both
# even on a loaded machine, where one actoolkit run can take 8 seconds (it lists what its
# arguments may name before it acts).
"$sim" -addr 127.0.0.1:0 -tls -ca-out "$work/ca.pem" -ready-file "$work/ready" -release 24.02 -kubeconfig-out "$work/kubeconfig" \
  -namespace wordpress -namespace mysql \
  -delay app=1s -delay snapshot=2s -delay backup=40s -delay restore=2s -delay delete=1s \
  -delay mirror=2s -delay failover=1s \
  ${ASTRA_SIM_FLAGS:-} >"$work/sim.log" 2>&1 &
sim_pid=$!
for _ in $(seq 100); do [ -s "$work/ready" ] && break; sleep 0.1; done
[ -s "$work/ready" ] || { cat "$work/sim.log" >&2; die "astra-sim did not start"; }
# shellcheck disable=SC1091
. "$work/ready"
mkdir -p "$work/conf"
# The toolkit's config (astraSDK/common.py getConfig): the current directory's config.yaml
# is read first; astra_project holding a dot is taken as the host (here host:port).
cat >"$work/conf/config.yaml" <<EOF
headers:
  Authorization: Bearer $ASTRA_API_TOKEN
uid: $ASTRA_ACCOUNT_ID
astra_project: ${ASTRA_ENDPOINT#https://}
verifySSL: true
EOF
export REQUESTS_CA_BUNDLE="$work/ca.pem"
unset ASTRATOOLKITS_CONF
cd "$work/conf"

results=() failures=0 n=0
# tk EXPECT DESCRIPTION -- ARGS...: runs actoolkit ARGS; EXPECT is ok (exit 0), fail (not
# 0) or optional (a collection the simulator may not serve yet: 404 problem 2 is "absent").
# The output is in $out (and $work/NN.out).
tk() {
  local expect="$1" what="$2" rc=0 verdict
  shift 3
  n=$((n + 1))
  timeout 180 "$py" "$src/toolkit.py" "$@" >"$work/$n.out" 2>&1 || rc=$?
  out="$(cat "$work/$n.out")"
  case "$expect:$rc" in
    ok:0 | fail:[1-9]* | optional:0) verdict=pass ;;
    optional:*) if grep -q 'problems/2"' <<<"$out"; then verdict=absent; else verdict=FAIL; fi ;;
    *) verdict=FAIL ;;
  esac
  record "$verdict" "actoolkit $* ($what, exit $rc)"
}
# check DESCRIPTION CONDITION...: a check of the last output (or of state), recorded like a command.
check() {
  local what="$1"
  shift
  if "$@"; then record pass "  check: $what"; else record FAIL "  check: $what"; fi
}
record() {
  results+=("$(printf '%-6s %s' "$1" "$2")")
  [ "$1" != FAIL ] || { failures=$((failures + 1)); printf '%s\n' "$out" | tail -n 15 >&2; }
  printf '%-6s %s\n' "$1" "$2"
}
has() { grep -q -- "$1" <<<"$out"; }
# json EXPR: evaluates EXPR (Python, over the toolkit's JSON output `d`) for `-o json` runs.
json() { "$py" -c "import json,sys; d=json.loads(sys.stdin.read()); print($1)" <<<"$out"; }
id_of() { # id_of KIND NAME: the id of the item named NAME in `actoolkit -o json list KIND`
  tk ok "find $2" -- -o json list "$1" >/dev/null
  json "next(i['id'] for i in d['items'] if i['name']=='$2')" 2>/dev/null || true
}
wait_app() { # wait_app NAME: until the app is ready (a snapshot of a discovering app is 409/112); not when it is absent
  local rc
  for _ in $(seq 30); do
    rc=0
    "$py" "$src/toolkit.py" -o json list apps 2>/dev/null | "$py" -c "import json,sys
d=json.load(sys.stdin); s=[a['state'] for a in d['items'] if a['name']=='$1']
sys.exit(0 if s==['ready'] else 2 if not s else 1)" || rc=$?
    [ "$rc" = 1 ] || return "$rc"
    sleep 0.5
  done
  return 1
}

step "day one: clouds, clusters, buckets, apps"
tk ok "the seeded clouds" -- list clouds
check "the GCP cloud is listed" has GCP
cluster="$(id_of clusters gke-prod)"
tk ok "manage the GKE cluster" -- manage cluster "$cluster"
tk ok "storage classes of the managed cluster" -- list storageclasses
tk ok "credentials" -- list credentials
tk ok "namespaces of managed clusters (GET /topology/v1/namespaces)" -- list namespaces
check "namespace wordpress is listed" has wordpress
tk ok "an S3 bucket with its credential" -- manage bucket generic-s3 tk-bucket -u s3.example.com --accessKey AKIAEXAMPLE --accessSecret secret-example
tk ok "buckets" -- list buckets
check "the bucket is available" has available
tk ok "manage namespace wordpress as app wp" -- manage app wp wordpress "$cluster"
check "app wp becomes ready" wait_app wp
app="$(id_of apps wp)"
tk ok "manage namespace mysql as app db" -- manage app db mysql "$cluster"
check "app db becomes ready" wait_app db
db="$(id_of apps db)"
tk ok "apps" -- list apps
tk ok "the app's assets (appAssets)" -- list assets "$app"
check "a StatefulSet among the assets" has StatefulSet

step "protection, hooks, snapshots and backups"
tk ok "an hourly protection policy" -- create protection "$app" -g hourly -b 1 -s 1 -m 5
tk ok "protection policies" -- list protections
check "the hourly policy is listed" has hourly
printf '#!/bin/sh\necho quiesced\n' >"$work/hook.sh"
tk ok "a hook source" -- create script tk-script "$work/hook.sh"
script="$(id_of scripts tk-script)"
tk ok "scripts" -- list scripts
tk ok "a pre-snapshot hook, no arguments" -- create hook "$app" tk-pre "$script" -o pre-snapshot
tk ok "a post-restore hook with arguments and matching criteria" -- create hook "$app" tk-post "$script" -o post-restore -a one two -n wordpress
tk ok "hooks" -- list hooks
check "both hooks are listed" eval 'has tk-pre && has tk-post'
tk ok "copy the app's hooks to app db (same names, another app)" -- copy hooks "$app" "$db"
tk ok "hooks" -- -o json list hooks
check "app db has both hooks" eval "[ \"\$(json \"sorted(h['name'] for h in d['items'] if h['appID']=='$db')\")\" = \"['tk-post', 'tk-pre']\" ]"
tk ok "copy the app's protection policies to app db" -- copy protections "$app" "$db"
tk ok "a snapshot, waited for" -- create snapshot "$app" snap1 -t 1
check "the snapshot completed" has 'complete!'
tk ok "a backup, waited for" -- create backup "$app" bak1 -t 1
check "the backup completed" has 'complete!'
snap="$(id_of snapshots snap1)"
backup="$(id_of backups bak1)"
tk ok "snapshots" -- list snapshots
tk ok "backups" -- list backups

step "updates"
tk ok "the policy's minute and retention" -- update protection "$(id_of protections 'hourly schedule')" -m 10 -b 2
tk ok "protection policies" -- -o json list protections
check "the policy fires at minute 10, keeps 2 backups" eval "[ \"\$(json \"[(p['minute'], p['backupRetention']) for p in d['items'] if p['appID']=='$app']\")\" = \"[('10', '2')]\" ]"
printf '#!/bin/sh\necho quiesced again\n' >"$work/hook2.sh"
tk ok "the script's source" -- update script "$script" "$work/hook2.sh"
bucket="$(id_of buckets tk-bucket)"
tk ok "the bucket's credential, a new one" -- update bucket "$bucket" --accessKey AKIAEXAMPLE2 --accessSecret secret-example-2
private="$(id_of clouds private)"
tk ok "the private cloud's default bucket" -- update cloud "$private" -b "$bucket"
tk ok "clouds" -- -o json list clouds
check "the private cloud's default bucket is set" eval "[ \"\$(json \"[c.get('defaultBucketID') for c in d['items'] if c['id']=='$private']\")\" = \"['$bucket']\" ]"
tk fail "a cluster's default bucket without the neptuneV1 capability (400/171)" -- update cluster "$cluster" -b "$bucket"
check "problem 171 refused it" has 'problems/171'

step "a private cluster from a kubeconfig"
tk ok "add it to the private cloud" -- create cluster "$work/kubeconfig" -c "$private"
kcluster="$(id_of clusters sim-cluster)"
tk ok "manage it" -- manage cluster "$kcluster"
tk ok "unmanage it (actoolkit then deletes the cluster and its credential)" -- unmanage cluster "$kcluster"
check "the cluster and its credential are gone" eval "has 'Cluster unmanaged' && has destroyed && has 'Credential deleted'"

step "clones and restores"
tk ok "a live clone without a namespace mapping" -- clone "$app" wpclone "$cluster" -t 1
tk ok "namespaces after the clone" -- -o json list namespaces
check "the clone's namespace is named after it" eval "[ \"\$(json \"any(n['name']=='wpclone' and 'wpclone' in n['associatedApps'] for n in d['items'])\")\" = True ]"
tk ok "a live clone into a new namespace" -- clone "$app" wpclone2 "$cluster" --newNamespace wp-two -t 1
tk ok "a restore from a backup into a new app" -- restore "$backup" wprest "$cluster" --newNamespace wp-rest -t 1
tk ok "a selective restore from a snapshot into a new app" -- restore "$snap" wpsel "$cluster" --newNamespace wp-sel --filterSelection include --filterSet kind=StatefulSet -t 1
check "the selective restore was accepted" has 'Submitting restore succeeded'
check "app wp is ready after the clones" wait_app wp
tk ok "an in-place restore from the snapshot" -- ipr --snapshot "$snap" "$app" -t 1
check "app wp is ready after the restore" wait_app wp
tk ok "a selective in-place restore from the backup" -- ipr --backup "$backup" "$app" --filterSelection exclude --filterSet kind=Service -t 1
check "app wp is ready after the selective restore" wait_app wp

step "cancelling a backup"
tk ok "a backup in the background" -- create backup "$app" bak-cancel -b
# The POST answer's ID (the first line): no extra actoolkit run while the backup is pending.
cancel="$("$py" -c "import json,sys; print(json.loads(sys.stdin.readline())['id'])" <<<"$out" 2>/dev/null || true)"
tk fail "destroying the pending backup is refused (409/128)" -- destroy backup "$app" "$cancel"
check "problem 128 named the pending backup" has 'problems/128'
for _ in $(seq 60); do
  tk ok "backups" -- -o json list backups >/dev/null
  [ "$(json "next(i['state'] for i in d['items'] if i['id']=='$cancel')")" = running ] && break
  sleep 0.25
done
tk ok "destroying the running backup cancels it" -- destroy backup "$app" "$cancel"

step "day two: tear down"
tk fail "the script while hooks use it (403/72)" -- destroy script "$script"
check "problem 72 refused it" has 'problems/72'
tk ok "hooks" -- -o json list hooks
hooks="$(json "' '.join(h['appID']+'/'+h['id'] for h in d['items'])")"
for h in $hooks; do
  tk ok "a hook" -- destroy hook "${h%/*}" "${h#*/}"
done
tk ok "the script" -- destroy script "$script"
tk ok "the backup" -- destroy backup "$app" "$backup"
tk ok "the snapshot" -- destroy snapshot "$app" "$snap"
sleep 1.5 # the delete delay: deleting, then gone
tk ok "backups after the delete" -- -o json list backups
check "bak1 is gone" eval "! has '\"bak1\"'"
tk ok "the protection policy" -- destroy protection "$app" "$(id_of protections 'hourly schedule')"
tk ok "app db's copied policy" -- destroy protection "$db" "$(id_of protections 'hourly schedule')"
for a in wp db wpclone wpclone2 wprest wpsel; do
  tk ok "unmanage app $a" -- unmanage app "$(id_of apps "$a")"
done
tk ok "apps after unmanaging" -- -o json list apps
check "no app is left" eval "[ \"\$(json 'len(d[\"items\"])')\" = 0 ]"
tk fail "the bucket while it is the cloud's default (409/84)" -- unmanage bucket "$bucket"
check "problem 84 refused it" has 'problems/84'
tk ok "unmanage the GKE cluster" -- unmanage cluster "$cluster"
tk ok "clusters" -- -o json list clusters
check "the GKE cluster is unmanaged" eval "[ \"\$(json \"[c['managedState'] for c in d['items'] if c['id']=='$cluster']\")\" = \"['unmanaged']\" ]"

step "replication: two managed clusters, app wp replicated from aks-prod to eks-prod"
# The GKE cluster is unmanaged by now: the source and destination are the AKS and EKS
# clusters, each with an ONTAP storage class (a replicated volume lives on ONTAP).
src_cluster="$(id_of clusters aks-prod)"
dst_cluster="$(id_of clusters eks-prod)"
tk ok "manage the source cluster" -- manage cluster "$src_cluster"
tk ok "manage the destination cluster" -- manage cluster "$dst_cluster"
tk ok "storage backends of the managed clusters" -- list storagebackends
check "an ONTAP backend is listed" has ontap
tk ok "manage namespace wordpress on the source as app wp" -- manage app wp wordpress "$src_cluster"
check "app wp becomes ready" wait_app wp
app="$(id_of apps wp)"
tk fail "a destination storage class not on ONTAP (400/118)" -- create replication "$app" -c "$dst_cluster" -n wp-dr -s gp2 -f 5m
check "problem 118 named the storage class" has 'problems/118'
tk ok "replicate app wp to the destination every 5 minutes (appMirror, then its schedule)" -- create replication "$app" -c "$dst_cluster" -n wp-dr -s fsx-netapp-file -f 5m -o 10
check "the schedule replicates at offset 00:10" eval "has '\"replicate\": \"true\"' && has 'DTSTART:20220101T001000Z'"
tk fail "the same app again (409: it already replicates)" -- create replication "$app" -c "$dst_cluster" -n wp-dr2 -f 5m
mirror_json() { # mirror_json EXPR: EXPR over the one relationship `m` in `list replications -o json`
  "$py" "$src/toolkit.py" -o json list replications 2>/dev/null |
    "$py" -c "import json,sys; m=json.load(sys.stdin)['items'][0]; print($1)" 2>/dev/null || true
}
wait_mirror() { # wait_mirror STATE: until the relationship is in STATE
  for _ in $(seq 40); do
    [ "$(mirror_json "m['state']")" = "$1" ] && return 0
    sleep 0.5
  done
  return 1
}
tk ok "replication policies" -- list replications
check "wordpress replicates to wp-dr" eval 'has wordpress && has wp-dr'
check "the relationship is established" wait_mirror established
mirror="$(mirror_json "m['id']")"
dst_app="$(mirror_json "m['destinationAppID']")"
tk ok "fail over to the destination (PUT answered with the relationship)" -- update replication "$mirror" failover
check "failover initiated" has 'Replication failover initiated'
check "the relationship is failed over" wait_mirror failedOver
tk ok "apps after the failover" -- -o json list apps
check "the destination app runs on the destination cluster" eval "[ \"\$(json \"[(a['clusterID'], a['state']) for a in d['items'] if a['id']=='$dst_app']\")\" = \"[('$dst_cluster', 'ready')]\" ]"
tk fail "a resync without --dataSource is refused" -- update replication "$mirror" resync
tk ok "resync from the destination app (it becomes the source)" -- update replication "$mirror" resync -s "$dst_app"
check "the relationship is established again" wait_mirror established
check "the destination app is now the source" eval "[ \"\$(mirror_json \"m['sourceAppID']\")\" = '$dst_app' ]"
tk ok "reverse back to the original source" -- update replication "$mirror" reverse
check "reverse initiated" has 'Replication reverse initiated'
check "the relationship is established after the reverse" wait_mirror established
check "app wp is the source again" eval "[ \"\$(mirror_json \"m['sourceAppID']\")\" = '$app' ]"
tk ok "fail over again" -- update replication "$mirror" failover
check "the relationship is failed over again" wait_mirror failedOver
tk ok "resync from the original source cluster" -- update replication "$mirror" resync -s "$src_cluster"
check "established from the original source" eval "wait_mirror established && [ \"\$(mirror_json \"m['sourceAppID']\")\" = '$app' ]"
tk ok "destroy the replication (and its replicating schedules)" -- destroy replication "$mirror"
check "the relationship and its schedule are destroyed" eval "has 'Replication policy $mirror destroyed' && has 'Underlying replication schedule'"
sleep 1.5 # the delete delay
tk ok "replication policies after the destroy" -- -o json list replications
check "no relationship is left" eval "[ \"\$(json 'len(d[\"items\"])')\" = 0 ]"

step "identity and access: local users, LDAP, groups, role bindings"
tk ok "users" -- list users
check "the account owner is listed" has owner0@astra-sim.example
tk ok "role bindings" -- -o json list rolebindings
check "the owner's binding is unconstrained" eval "[ \"\$(json \"[b['roleConstraints'] for b in d['items'] if b['role']=='owner']\")\" = \"[['*']]\" ]"
ns="$(tk ok "namespaces" -- -o json list namespaces >/dev/null; json "next(n['id'] for n in d['items'] if n['name']=='wordpress' and n['clusterID']=='$src_cluster')")"
tk ok "a local user with a temporary password, member of one namespace (by ID)" -- create user alice@example.com member -f Alice -l Smith -p 'Temp-Passw0rd!' -n "$ns"
check "the binding holds the namespace constraint" has "namespaces:id='$ns'.\\*"
tk ok "a local viewer constrained by a namespace label" -- create user dave@example.com viewer -p 'Temp-Passw0rd!' -a kubernetes.io/metadata.name=wordpress
check "the binding holds the label constraint" has "namespaces:kubernetesLabels='kubernetes.io/metadata.name=wordpress'"
tk ok "users matching alice" -- list users -f alice
check "Alice Smith is local and active" eval "has 'Alice Smith' && has local && has active"
alice="$(tk ok "users" -- -o json list users >/dev/null; json "next(u['id'] for u in d['items'] if u['email']=='alice@example.com')")"
tk ok "role bindings of Alice" -- list rolebindings -i "$alice"
check "Alice is a member" has member
tk ok "LDAP settings before configuring" -- list ldapsettings
check "LDAP is disabled" has false
tk ok "LDAP with a wrong service-account password (the setting shows the bind error)" -- create ldap ldap.example.com 389 -u astra-bind@example.com -p wrong --userBaseDN ou=users,dc=example,dc=com --groupBaseDN ou=groups,dc=example,dc=com
check "the bind failed (LDAP result 49)" has 'Invalid Credentials'
tk ok "LDAP against the simulated directory" -- create ldap ldap.example.com 389 -u astra-bind@example.com -p sim-bind-password --userBaseDN ou=users,dc=example,dc=com --groupBaseDN ou=groups,dc=example,dc=com
check "the setting is valid" has '"state": "valid"'
tk ok "LDAP settings" -- list ldapsettings
check "LDAP is enabled on ldap.example.com" eval "has true && has ldap.example.com"
tk ok "LDAP users" -- list ldapusers
check "the directory's people are listed" eval "has bob@example.com && has carol@example.com"
tk ok "LDAP users by a partial email (filter email in 'bob')" -- list ldapusers -e bob
check "only Bob matches" eval "has bob@example.com && ! has carol@example.com"
tk ok "LDAP groups by exact common name" -- list ldapgroups --cnFilter payments --matchType exact
check "the payments group is listed" has 'cn=payments,ou=groups,dc=example,dc=com'
tk ok "an LDAP user (names from the directory)" -- create user carol@example.com viewer --ldap
check "Carol is an LDAP user" eval "has '\"authProvider\": \"ldap\"' && has Carol"
tk fail "an LDAP user the directory lacks" -- create user nobody@example.com viewer --ldap
tk ok "an LDAP group, member of namespaces labelled wordpress (found by dn in '<dn>')" -- create group cn=payments,ou=groups,dc=example,dc=com member -a kubernetes.io/metadata.name=wordpress
check "the group binding has the nil user ID" eval "has '\"principalType\": \"group\"' && has '\"userID\": \"00000000-0000-0000-0000-000000000000\"'"
tk ok "groups" -- list groups
check "the payments group is an LDAP group" eval "has payments && has ldap"
tk ok "disable LDAP (unmanage ldap)" -- unmanage ldap
tk ok "LDAP settings" -- -o json list ldapsettings
check "LDAP is disabled" eval "[ \"\$(json \"d['items'][0]['currentConfig']['isEnabled']\")\" = false ]"
tk ok "enable LDAP again (manage ldap)" -- manage ldap
tk ok "LDAP settings" -- -o json list ldapsettings
check "LDAP is enabled" eval "[ \"\$(json \"d['items'][0]['currentConfig']['isEnabled']\")\" = true ]"
tk ok "groups" -- -o json list groups
group="$(json "next(g['id'] for g in d['items'] if g['name']=='payments')")"
tk ok "destroy the group (its binding first)" -- destroy group "$group"
check "binding and group destroyed" eval "has 'RoleBinding' && has 'Group $group destroyed'"
for u in 'Alice Smith' Carol; do
  id="$(tk ok "users" -- -o json list users >/dev/null; json "next(u['id'] for u in d['items'] if (u['firstName']+' '+u['lastName']).startswith('$u'))")"
  tk ok "destroy user $u (its binding first)" -- destroy user "$id"
  check "user $u destroyed" has "User $id destroyed"
done
tk ok "destroy the LDAP configuration and its credential" -- destroy ldap
check "the bind credential is destroyed" has 'Credential .* destroyed'
tk ok "users after the destroys" -- -o json list users
check "the owner and dave are left" eval "[ \"\$(json 'sorted(u[\"email\"] for u in d[\"items\"])')\" = \"['dave@example.com', 'owner0@astra-sim.example']\" ]"
tk ok "role bindings after the destroys" -- -o json list rolebindings
check "two bindings are left" eval "[ \"\$(json 'len(d[\"items\"])')\" = 2 ]"

step "replication and access tear down"
tk ok "unmanage app wp" -- unmanage app "$app"
tk ok "apps" -- -o json list apps
for a in $(json "' '.join(a['id'] for a in d['items'])"); do
  tk ok "unmanage the replication's destination app" -- unmanage app "$a"
done
tk ok "unmanage the source cluster" -- unmanage cluster "$src_cluster"
tk ok "unmanage the destination cluster" -- unmanage cluster "$dst_cluster"

step "summary"
printf '%s\n' "${results[@]}"
echo "toolkit: $(git -C "$src" rev-parse HEAD 2>/dev/null || echo "$src (not a git checkout)")"
echo "$failures of ${#results[@]} failed"
[ "$failures" = 0 ]
