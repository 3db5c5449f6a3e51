#!/bin/sh
# For tests/ompcc/server.test: kills the spare child of the one ompinst server in directory $1 (the
# child it forks ahead of the next request) once the server is idle (the spare its only child), and
# prints "replaced" when the server forks another spare, "ended" when the server ends.
server=$(cat "$1"/*.lock) || exit 1
children() { cat /proc/"$server"/task/"$server"/children 2> /dev/null; }
for i in $(seq 400); do
  set -- $(children)
  test $# = 1 && break
  sleep 0.05
done
test $# = 1 || { echo "the server has $# children, not one"; exit 1; }
spare=$1
kill -TERM "$spare" || exit 1
for i in $(seq 400); do
  if ! test -e /proc/"$server"/task || test "$(cat /proc/"$server"/stat | cut -d' ' -f3)" = Z; then
    echo ended
    exit 0
  fi
  now=$(children | tr -d ' ')
  if test -n "$now" && test "$now" != "$spare"; then
    echo replaced
    exit 0
  fi
  sleep 0.05
done
echo "the spare was neither replaced nor the server ended"
exit 1
