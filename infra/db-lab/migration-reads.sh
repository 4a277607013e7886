#!/usr/bin/env bash
# How long a client waits to read an order while the schema migrates from V1 to the latest version under it: a
# scratch database at V1 (bin/migrate to version 1) filled with realistic orders, pgbench clients reading orders by
# user (orders_user_id_idx) without pause, then bin/migrate to the latest version. Prints each version's run and the
# longest read that overlapped it, and the longest read while nothing migrated.
#
#   infra/db-lab/migration-reads.sh [orders] [clients]     # default 1000000 orders, 4 clients; about 3 min
#
# PGHOST/PGPORT/PGUSER as for psql. docs/database.md shows what this printed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orders="${1:-1000000}"
clients="${2:-4}"
reads_for=120
work="$(mktemp -d)"
scratch_database "db_lab_migration_$$"
url="jdbc:postgresql://$PGHOST:$PGPORT/$db"

"$root/bin/migrate" "$url" "$PGUSER" 1 2>/dev/null | tail -n 1
start=$SECONDS
sql -q -v orders="$orders" -f "$root/infra/db-lab/fill-v1-orders.sql"
echo "filled $orders orders in $((SECONDS - start)) s"

cat > "$work/read.sql" <<SQL
\set user random(1, $orders)
SELECT id, status FROM orders WHERE user_id = 'user-' || :user;
SQL
(cd "$work" && pgbench -n -f read.sql -c "$clients" -T "$reads_for" -l --log-prefix=reads "$db" > pgbench.out 2>&1) &
reads=$!
sleep 5
"$root/bin/migrate" --no-build "$url" "$PGUSER" 2>&1 | grep -E "Migrating|Successfully|schema at|failed" || true
wait "$reads"
sql -At -F ' ' -c "SELECT version, extract(epoch FROM installed_on), execution_time, script FROM flyway_schema_history
                   WHERE version IS NOT NULL AND version <> '1' ORDER BY installed_rank" > "$work/history"

python3 - "$work" "$root/common-model/src/main/resources/db/migration" <<'PY'
import glob, os, sys
work, migrations = sys.argv[1], sys.argv[2]
reads = []  # (start, end) in seconds, each read
for name in glob.glob(os.path.join(work, "reads*")):
    for line in open(name):
        f = line.split()
        end = int(f[4]) + int(f[5]) / 1e6
        reads.append((end - int(f[2]) / 1e6, end))
windows = []
for line in open(os.path.join(work, "history")):
    version, installed, ms, script = line.split()
    # a script in a transaction records its row in that transaction (installed_on is its start); one outside records
    # it once done
    outside = os.path.exists(os.path.join(migrations, script + ".conf"))
    start = float(installed) - int(ms) / 1000 if outside else float(installed)
    windows.append((version, script, start, start + int(ms) / 1000))
print(f"{len(reads)} reads by the clients; longest read overlapping each migration:")
print(f"{'version':>8} {'ran (ms)':>9} {'reads':>7} {'longest read (ms)':>18}  script")
during = set()
for version, script, start, end in windows:
    overlapping = [r for r in reads if r[0] < end and r[1] > start]
    during.update(overlapping)
    longest = max((r[1] - r[0]) * 1000 for r in overlapping) if overlapping else 0
    print(f"{version:>8} {(end - start) * 1000:>9.0f} {len(overlapping):>7} {longest:>18.1f}  {script}")
outside = [r for r in reads if r not in during]
print(f"no migration running: {len(outside)} reads, longest {max((r[1] - r[0]) * 1000 for r in outside):.1f} ms")
PY
rm -rf "$work"
