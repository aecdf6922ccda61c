#!/bin/sh
# Astra Control execution hook for PostgreSQL, run inside the postgres container around a
# snapshot (a backup that takes its own snapshot runs it too).
#
#   postgres-snapshot-hook.sh pre    before the snapshot
#   postgres-snapshot-hook.sh post   after it
#
# PostgreSQL writes ahead, so a crash-consistent snapshot of its volume recovers on its
# own by replaying WAL. The pre stage runs a CHECKPOINT so the data files on the volume are
# current and that replay is short, and both stages log the WAL position, so a snapshot
# can be matched with the server's log. Any exit status but 0 marks the hook failed: the
# snapshot still completes, with hookState "failed" naming this hook.
set -eu

stage="${1:-}"
user="${POSTGRES_USER:-postgres}"
database="${POSTGRES_DB:-$user}"

sql() {
  psql --no-psqlrc --quiet --tuples-only --no-align -v ON_ERROR_STOP=1 \
    --username "$user" --dbname "$database" --command "$1"
}

case "$stage" in
  pre)
    sql "CHECKPOINT"
    echo "astra pre-snapshot: checkpoint done, WAL at $(sql 'SELECT pg_current_wal_lsn()')"
    ;;
  post)
    echo "astra post-snapshot: WAL at $(sql 'SELECT pg_current_wal_lsn()')"
    ;;
  *)
    echo "usage: $0 pre|post" >&2
    exit 2
    ;;
esac
