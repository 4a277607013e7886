#!/bin/bash
# Sets PostgreSQL up as the official postgres image's entrypoint does, then runs the command (postgres and its options):
# on the first start, a cluster whose superuser POSTGRES_USER has the password POSTGRES_PASSWORD (password
# authentication over TCP) and the database POSTGRES_DB, the server listening on every address of the container.
set -euo pipefail

user="${POSTGRES_USER:-postgres}"
database="${POSTGRES_DB:-$user}"
if [[ ! -s "$PGDATA/PG_VERSION" ]]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
  initdb --pgdata="$PGDATA" --username="$user" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 > /dev/null
  printf "listen_addresses = '*'\nunix_socket_directories = '/var/run/postgresql'\n" >> "$PGDATA/postgresql.conf"
  printf 'host all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  if [[ "$database" != "postgres" ]]; then
    pg_ctl --pgdata="$PGDATA" --options="-c listen_addresses=''" --wait --silent start
    psql --quiet --username="$user" --dbname=postgres --set=ON_ERROR_STOP=1 \
      --command="CREATE DATABASE \"$database\""
    pg_ctl --pgdata="$PGDATA" --mode=fast --wait --silent stop
  fi
  echo "docker-entrypoint.sh: initialized $PGDATA with database $database"
fi
exec "$@"
