#!/usr/bin/env bash
# Debian packages the tests need: chromium (Playwright drives it), ffmpeg (fake-camera videos),
# fonts-ocr-b (synthetic cédula fixtures), postgresql (the server tier also runs on a throwaway
# PostgreSQL cluster). Installed when missing and running as root; otherwise
# the exact command to run is printed and the script fails.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
dpkg -s fonts-ocr-b >/dev/null 2>&1 || missing+=(fonts-ocr-b)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages present: chromium $(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}')"
  exit 0
fi
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  exit 0
fi
echo "Missing Debian packages: ${missing[*]}. Run:" >&2
echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
exit 1
