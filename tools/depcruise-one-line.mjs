// A dependency-cruiser reporter plugin that prints one line per violation, so `npm run
// lint:layers` output greps and diffs well. (The built-in `err` reporter spreads each cycle
// over several lines.) All the checking is dependency-cruiser's; this only formats.
// Use: depcruise --output-type plugin:<absolute path to this file> ...

/** @param {import('dependency-cruiser').ICruiseResult} result */
export default function oneLinePerViolation(result) {
  const { violations, error, totalCruised, totalDependenciesCruised } = result.summary;
  const lines = violations
    .filter((v) => v.rule.severity !== 'ignore')
    .map((v) => {
      const path = v.cycle ? [v.from, ...v.cycle.map((step) => step.name)] : [v.from, v.to];
      return `${v.rule.severity} ${v.rule.name}: ${path.join(' → ')}`;
    });
  const summary =
    lines.length === 0
      ? `no dependency violations (${totalCruised} modules, ${totalDependenciesCruised ?? 0} dependencies cruised)`
      : `${lines.length} dependency violations (${error} errors) in ${totalCruised} modules, ${totalDependenciesCruised ?? 0} dependencies cruised`;
  return { output: `${[...lines, summary].join('\n')}\n`, exitCode: error };
}
