#!/bin/sh
# Installs the browser test's npm packages (package.json, package-lock.json: puppeteer-core at a
# pinned version) into DIR, a directory of the build tree; again only when the lock file changed.
# puppeteer-core downloads no browser: the test drives Debian's /usr/bin/chromium.
set -eu
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
if [ -d "$dir/node_modules/puppeteer-core" ] && cmp -s "$here/package-lock.json" "$dir/package-lock.json"; then
  exit 0
fi
cp "$here/package.json" "$here/package-lock.json" "$dir/"
cd "$dir"
npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >npm.log 2>&1 || {
  cat npm.log >&2
  echo "browser test: npm ci failed in $dir (is the npm registry reachable?)" >&2
  exit 1
}
