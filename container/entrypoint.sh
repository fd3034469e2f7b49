#!/bin/sh
# The image's entrypoint: which part of the service this container runs.
#   (no argument)  the role in OPS_ROLE (default `all`)
#   api            HTTP only (RUN_HTTP=true RUN_WORKERS=false)
#   worker         BullMQ workers only (RUN_HTTP=false RUN_WORKERS=true)
#   all            both in one process
#   ops ARGS...    the operator CLI (`ops tenant create --name acme`, `ops db migrate`, ...)
#   anything else  run as a command (`sh`, `node -v`)
# `exec` everywhere: node is PID 1's direct replacement, so SIGTERM reaches the service and drains it.
set -eu
cd /app
role=${1:-$OPS_ROLE}
[ $# -gt 0 ] && shift
case "$role" in
  api) export RUN_HTTP=true RUN_WORKERS=false ;;
  worker) export RUN_HTTP=false RUN_WORKERS=true ;;
  all) export RUN_HTTP="${RUN_HTTP:-true}" RUN_WORKERS="${RUN_WORKERS:-true}" ;;
  ops) exec node --enable-source-maps dist/src/server/cli/main.js "$@" ;;
  *) exec "$role" "$@" ;;
esac
exec node --enable-source-maps dist/src/server/main.js "$@"
