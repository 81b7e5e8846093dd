#!/usr/bin/env bash
# `npm test`: every test tier, in the order that fails fastest. Installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 STORYBOOK_DISABLE_TELEMETRY=1 ONNXRUNTIME_NODE_INSTALL=skip

step() { printf '\n=== %s ===\n' "$*"; }

if [ ! -d node_modules ]; then
  step "npm ci"
  npm ci --no-audit --no-fund
fi

step "system packages (Debian's chromium, ffmpeg, OCR-B font, postgresql)"
bash scripts/ensure-system-deps.sh

step "typecheck"
npm run typecheck

step "lint"
npm run lint

step "format"
npm run format:check

step "unit, machine, story, server and engine tests (Vitest)"
rm -rf reports && mkdir -p reports
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json

step "server tier on PostgreSQL (throwaway cluster, removed afterwards)"
pg_started=$SECONDS
source scripts/pg-test-cluster.sh
npx vitest run --project node tests/server --reporter=default --reporter=json \
  --outputFile.json=reports/vitest-postgres.json
pg_test_cluster_stop
trap - EXIT
echo "PostgreSQL tier: $((SECONDS - pg_started)) s"

step "build the app"
npm run build

step "build Storybook"
npm run build-storybook

step "end-to-end (Playwright, Chromium)"
npx playwright test

step "summary"
npx tsx scripts/test-summary.ts
