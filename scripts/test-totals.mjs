#!/usr/bin/env node
// Sums vitest JSON reports into the one closing line CI reads: "N passed, N failed".
// A missing or unreadable report counts as one failure, and so does a failed gate.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) || 0 : 0;
};
const reports = args.filter(
  (a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')),
);

let passed = option('--extra-passed');
let failed = option('--extra-failed');
for (const file of reports) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
    console.log(
      `${file.split('/').pop()}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`,
    );
  } catch {
    console.log(`${file}: no report`);
    failed += 1;
  }
}
if (option('--gates-failed') && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
