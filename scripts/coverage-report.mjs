// After `npm test -- --coverage`: merges the coverage of every phase that ran (coverage/<phase>/), writes
// coverage/lcov.info and coverage/lcov-report/, and prints line coverage per package and in total.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import libCoverage from 'istanbul-lib-coverage';
import libReport from 'istanbul-lib-report';
import reports from 'istanbul-reports';

export function mergeCoverage(root) {
  const dir = join(root, 'coverage');
  const map = libCoverage.createCoverageMap({});
  const phases = existsSync(dir)
    ? readdirSync(dir).filter((p) => existsSync(join(dir, p, 'coverage-final.json')))
    : [];
  for (const phase of phases)
    map.merge(JSON.parse(readFileSync(join(dir, phase, 'coverage-final.json'), 'utf8')));
  const context = libReport.createContext({ dir, coverageMap: map });
  for (const name of ['lcov', 'text-summary']) reports.create(name).execute(context);

  const perPackage = new Map();
  for (const file of map.files()) {
    const parts = relative(root, file).split('/');
    const pkg = parts[0] === 'libs' || parts[0] === 'services' ? parts.slice(0, 2).join('/') : parts[0];
    const lines = map.fileCoverageFor(file).toSummary().lines;
    const sum = perPackage.get(pkg) ?? { covered: 0, total: 0 };
    sum.covered += lines.covered;
    sum.total += lines.total;
    perPackage.set(pkg, sum);
  }
  const pct = ({ covered, total }) => (total === 0 ? 100 : (100 * covered) / total).toFixed(1);
  console.log(`\nline coverage per package (phases: ${phases.join(', ')})`);
  for (const [pkg, sum] of [...perPackage].sort()) {
    console.log(`  ${pkg.padEnd(28)} ${pct(sum).padStart(5)}%  (${sum.covered}/${sum.total})`);
  }
  console.log(
    `lcov: ${relative(root, join(dir, 'lcov.info'))}, HTML: ${relative(root, join(dir, 'lcov-report/index.html'))}`,
  );
}
