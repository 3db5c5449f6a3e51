#!/bin/sh
# For tests/ompcc/server.test: once the children of the one ompinst server in directory $1 have
# stayed the same for half a second, prints how many serve a request ("busy": a child takes on its
# client's working directory) and how many wait for the next one ("spare": the server's "/").
server=$(cat "$1"/*.lock) || exit 1
state() {
  busy=0 spare=0
  for child in $(cat /proc/"$server"/task/"$server"/children 2> /dev/null); do
    if test "$(readlink /proc/"$child"/cwd)" = /; then spare=$((spare + 1)); else busy=$((busy + 1)); fi
  done
  echo "busy=$busy spare=$spare"
}
previous=$(state)
stable=0
for i in $(seq 400); do
  sleep 0.05
  now=$(state)
  if test "$now" = "$previous"; then stable=$((stable + 1)); else stable=0; fi
  previous=$now
  test $stable -ge 10 && break
done
echo "$previous"
