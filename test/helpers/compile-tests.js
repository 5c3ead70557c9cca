// Compiles the project's TypeScript once per test run into a mirror of the project, so that the test
// processes run plain JavaScript: under tsx every process pays about 1.4 s of CPU for its loader hooks
// (on Node 20 they run in a worker thread, crossed for every module), and a run starts some 300.
//
// The mirror has the project's layout. Each top-level folder that holds TypeScript is copied, and
// each .ts file in it is compiled by esbuild (tsx's own compiler, with the project's tsconfig) to a
// .js file beside it, with its relative `.ts` imports naming the compiled siblings; every other
// top-level entry (node_modules, docs, data, ...) is a symlink to the original. So
// `import.meta.dirname`-relative paths reach the same files, a test that reads source code reads the
// source, and a child started with `--import tsx <mirror>/bin/x.ts` runs the same code through tsx.
// Copies rather than links inside the code folders: a file there is a file (readdir's isFile), and
// its real path is in the mirror. The mirror's own folder has the project's neighbours too
// (symlinks): the real extracts are read from ../shared.
//
//   compileProject(projectRoot, mirrorParent) -> Promise<string>: the mirror's root, mirrorParent/<project's folder name>
import { build, stop } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/** Linked, never copied, whatever they hold: installed packages, and git's own folder. */
const LINKED_ALWAYS = new Set(['.git', 'node_modules']);

/** The .ts files under dir, at any depth. */
function typeScriptFiles(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts')).map((name) => path.join(dir, name));
}

/** esbuild plugin: every import stays an import (nothing is bundled); a relative `.ts` one names the compiled `.js`. */
const importsStay = {
  name: 'imports-stay',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const relativeTypeScript = /^\.\.?\//.test(args.path) && args.path.endsWith('.ts');
      return { path: relativeTypeScript ? `${args.path.slice(0, -3)}.js` : args.path, external: true };
    });
  },
};

export async function compileProject(projectRoot, mirrorParent) {
  rmSync(mirrorParent, { recursive: true, force: true });
  const mirrorRoot = path.join(mirrorParent, path.basename(projectRoot));
  mkdirSync(mirrorRoot, { recursive: true });
  const sources = [];
  for (const entry of readdirSync(projectRoot, { withFileTypes: true })) {
    const from = path.join(projectRoot, entry.name);
    const to = path.join(mirrorRoot, entry.name);
    const code = entry.isDirectory() && !LINKED_ALWAYS.has(entry.name) && !entry.name.startsWith('.') ? typeScriptFiles(from) : [];
    if (code.length === 0) {
      symlinkSync(from, to);
      continue;
    }
    cpSync(from, to, { recursive: true });
    sources.push(...code);
  }
  const neighbours = path.dirname(projectRoot);
  for (const name of readdirSync(neighbours)) {
    if (name !== path.basename(projectRoot)) symlinkSync(path.join(neighbours, name), path.join(mirrorParent, name));
  }
  // `bundle` with every import external compiles each file on its own, as tsx does, and lets the
  // plugin name the compiled files; the mirrored package.json keeps them ES modules. Target and
  // keepNames as tsx sets them, so the code behaves as it does under tsx.
  await build({
    entryPoints: sources,
    outbase: projectRoot,
    outdir: mirrorRoot,
    bundle: true,
    plugins: [importsStay],
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    keepNames: true,
    tsconfig: path.join(projectRoot, 'tsconfig.json'),
    logLevel: 'error',
  });
  // esbuild's service process would otherwise stay until the run ends.
  await stop();
  return mirrorRoot;
}
