// Compiles the project's TypeScript once per test run into a mirror of the project, so that the test
// processes run plain JavaScript: under tsx every process pays about 1.4 s of CPU for its loader hooks
// (on Node 20 they run in a worker thread, crossed for every module), and a run starts some 300.
//
// The mirror has the project's layout: each .ts file is compiled by esbuild (tsx's own compiler, with
// the project's tsconfig) to a .js file beside it, with its relative `.ts` imports pointing at the
// compiled siblings; every other file and folder, the .ts sources included, is a symlink to the
// original. So `import.meta.dirname`-relative paths reach the same files, a file that reads source
// code reads the source, and a child started with `--import tsx <mirror>/bin/x.ts` runs the original.
// The mirror's own folder has the project's neighbours too (symlinks): the real extracts are read
// from ../shared.
//
//   compileProject(projectRoot, mirrorParent) -> Promise<string>: the mirror's root, mirrorParent/<project's folder name>
import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

/** Folders never mirrored: installed or generated, or private to git. */
const SKIPPED = new Set(['.git', 'node_modules']);

/** True when dir holds a .ts file at any depth (node_modules and dot folders aside). */
function holdsTypeScript(dir) {
  return readdirSync(dir, { withFileTypes: true }).some((entry) => (entry.isDirectory()
    ? !SKIPPED.has(entry.name) && !entry.name.startsWith('.') && holdsTypeScript(path.join(dir, entry.name))
    : entry.isFile() && entry.name.endsWith('.ts')));
}

/** Mirrors dir into mirror: folders holding TypeScript are made, everything else is a symlink; returns the .ts files. */
function mirrorFolder(dir, mirror, sources) {
  mkdirSync(mirror, { recursive: true });
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const from = path.join(dir, entry.name);
    const to = path.join(mirror, entry.name);
    if (entry.isDirectory() && !SKIPPED.has(entry.name) && !entry.name.startsWith('.') && holdsTypeScript(from)) {
      mirrorFolder(from, to, sources);
      continue;
    }
    symlinkSync(from, to);
    if (entry.isFile() && entry.name.endsWith('.ts')) sources.push(from);
  }
  return sources;
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
  const sources = mirrorFolder(projectRoot, mirrorRoot, []);
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
  return mirrorRoot;
}
