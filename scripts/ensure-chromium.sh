#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser tests (ENVIRONMENT.md).
# Never `npx playwright install`: its download does not work on these machines.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium (apt-get)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y chromium
  if [ -x "$CHROMIUM" ]; then
    exit 0
  fi
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing." >&2
  exit 1
fi

echo "ensure-chromium: $CHROMIUM is missing. Install Debian's Chromium, then run the tests again:" >&2
echo "  sudo apt-get update && sudo apt-get install -y chromium" >&2
exit 1
