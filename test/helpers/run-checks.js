// The type-check and the lint of a full `npm test` run (test/helpers/run-tests.js), in one process over
// one TypeScript program: `tsc --noEmit -p .` and `eslint .` each build and type-check the whole
// project, and ESLint's type-aware rules then ask the checker for types it has already worked out.
// Sharing the program does that work once. The lint is `npm run lint`'s (eslint.config.js), given
// the program instead of its project service; the type-check is tsc's (the diagnostics tsc prints,
// from tsconfig.json). Prints what each found and exits 1 when either found a problem.
//
//   node test/helpers/run-checks.js
import { ESLint } from 'eslint';
import path from 'node:path';
import ts from 'typescript';

const projectRoot = path.resolve(import.meta.dirname, '../..');

/** tsconfig.json's program, and the problems tsc would report for it (options, syntax, types). */
function typeCheck() {
  const configErrors = [];
  const config = ts.getParsedCommandLineOfConfigFile(path.join(projectRoot, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic),
  });
  if (!config) return { program: null, diagnostics: configErrors };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
  return { program, diagnostics: [...config.errors, ...ts.getPreEmitDiagnostics(program)] };
}

const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const { program, diagnostics } = typeCheck();
const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => projectRoot, getNewLine: () => '\n' };
process.stdout.write(diagnostics.length === 0
  ? `# tsc: no problems (${seconds()} s)\n`
  : `# tsc: ${diagnostics.length} problem(s)\n${ts.formatDiagnostics(diagnostics, host)}`);

let lintProblems = 0;
if (program) {
  const eslint = new ESLint({
    cwd: projectRoot,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, programs: [program] } } }],
  });
  const results = await eslint.lintFiles(['.']);
  lintProblems = results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0);
  process.stdout.write(lintProblems === 0
    ? `# eslint: no problems (${seconds()} s)\n`
    : `# eslint: ${lintProblems} problem(s)\n${await (await eslint.loadFormatter('stylish')).format(results)}\n`);
}
process.exitCode = diagnostics.length > 0 || !program || lintProblems > 0 ? 1 : 0;
