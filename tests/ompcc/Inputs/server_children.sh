#!/bin/sh
# For tests/ompcc/server.test: once the children of the one ompinst server in directory $1 have
# stayed the same for half a second, prints how many serve a request ("busy": a child takes on its
# client's working directory) and how many wait for the next one ("spare": the server's "/").
# With a second argument "busy" it first waits until a child serves a request (a command started
# just before may take a while to reach the server on a loaded machine).
server=$(cat "$1"/*.lock) || exit 1
state() {
  busy=0 spare=0
  for child in $(cat /proc/"$server"/task/"$server"/children 2> /dev/null); do
    if test "$(readlink /proc/"$child"/cwd)" = /; then spare=$((spare + 1)); else busy=$((busy + 1)); fi
  done
  echo "busy=$busy spare=$spare"
}
if test "$2" = busy; then
  for i in $(seq 400); do
    case $(state) in busy=0*) sleep 0.05 ;; *) break ;; esac
  done
fi
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
