// isEntryPoint (bin/commandLine.ts): a module that is both a library and a command knows it was
// started as the command also when node was given a symlink to it (Node loads the main module from
// its real path; process.argv[1] keeps the link's), and not when another script was started.
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { isEntryPoint } from '../../bin/commandLine.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

/** Runs `check` with process.argv[1] set to `script` (undefined: no script, as under `node -e`). */
function withScript<T>(script: string | undefined, check: () => T): T {
  const saved = [...process.argv];
  process.argv.splice(1, process.argv.length - 1, ...(script === undefined ? [] : [script]));
  try {
    return check();
  } finally {
    process.argv.splice(0, process.argv.length, ...saved);
  }
}

test('the started script is the entry point, by its path or through a symlink to it; others are not', async () => {
  const self = fileURLToPath(import.meta.url);
  const link = path.join(await tempDirUntilExit('entry-point-'), 'linked-command.ts');
  await symlink(self, link);
  assert.equal(withScript(self, () => isEntryPoint(import.meta.url)), true);
  assert.equal(withScript(link, () => isEntryPoint(import.meta.url)), true, 'started through a symlink');
  // Relative to the working folder, as `node bin/x.ts` gives it.
  assert.equal(withScript(path.relative(process.cwd(), self), () => isEntryPoint(import.meta.url)), true);

  const other = pathToFileURL(path.join(path.dirname(self), 'another.ts')).href;
  assert.equal(withScript(link, () => isEntryPoint(other)), false, 'another module');
  assert.equal(withScript(path.join(path.dirname(link), 'missing.ts'), () => isEntryPoint(import.meta.url)), false, 'a script that does not exist');
  assert.equal(withScript(undefined, () => isEntryPoint(import.meta.url)), false, 'no script (node -e)');
});
