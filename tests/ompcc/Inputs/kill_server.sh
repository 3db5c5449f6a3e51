#!/bin/sh
# For tests/ompcc/server.test: kills the one ompinst server in directory $1 with SIGKILL, which
# leaves its socket and lock behind, and waits until the server and its children (a spare dies
# with it) have ended: until then a spare still holds the listening socket, and a command would
# reach a dying child rather than a stale socket. `kill` returns before the processes are gone,
# which on a loaded machine takes a while for processes as large as ompinst-clang.
server=$(cat "$1"/*.lock) || exit 1
pids="$server $(cat /proc/"$server"/task/*/children 2> /dev/null)"
kill -KILL "$server" || exit 1
ended() { ! test -e /proc/"$1"/stat || test "$(cut -d' ' -f3 /proc/"$1"/stat 2> /dev/null)" = Z; }
for i in $(seq 400); do
  alive=
  for pid in $pids; do ended "$pid" || alive="$alive $pid"; done
  test -z "$alive" && exit 0
  sleep 0.05
done
echo "still running 20 s after SIGKILL:$alive"
exit 1
