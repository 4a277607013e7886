# Shared by the db-lab scripts: a scratch database on the PostgreSQL that psql reaches (PGHOST, PGPORT, PGUSER;
# 127.0.0.1:5432 as postgres unless set), dropped on exit unless KEEP=1, and the project's migrations applied with
# psql. Sourced, not run.

export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
migrations="$root/common-model/src/main/resources/db/migration"

# Creates the scratch database $db (name given by the caller) and drops it when the script exits.
scratch_database() {
  db="$1"
  createdb "$db"
  if [[ "${KEEP:-0}" != 1 ]]; then
    trap 'dropdb --force --if-exists "$db"' EXIT
  else
    echo "keeping database $db (KEEP=1)"
  fi
}

# The migration scripts with a version in [from, to], by version.
migration_scripts() {
  local from="$1" to="$2"
  for file in "$migrations"/V*__*.sql; do
    local version="${file##*/V}"
    version="${version%%__*}"
    if (( version >= from && version <= to )); then
      echo "$version $file"
    fi
  done | sort -n | cut -d' ' -f2-
}

# Applies the migrations with a version in [from, to] with psql, each statement on its own (as Flyway runs a script
# marked executeInTransaction=false; the others' effect is the same on a database nobody else uses).
apply_migrations() {
  local file
  for file in $(migration_scripts "$1" "$2"); do
    echo "-- ${file##*/}"
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$file"
  done
}

# psql on the scratch database, stopping at the first error.
sql() {
  psql -X -v ON_ERROR_STOP=1 -d "$db" "$@"
}

# A text block of the project's Java code (private static final String NAME = """ ... """;), so that the lab runs the
# very statements the code runs.
java_text_block() {
  local file="$1" name="$2"
  sed -n "/ $name = \"\"\"/,/\"\"\";/p" "$file" | sed '1d;$d'
}
